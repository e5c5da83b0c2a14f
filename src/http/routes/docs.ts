import { Router } from 'express';
import type { AppContext } from '../../app-context';

// Placeholder until the OpenAPI document lands (being written in parallel).
export function docsRouter(_ctx: AppContext): Router {
  return Router();
}
