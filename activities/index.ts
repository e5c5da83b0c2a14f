import type { Orm } from '../src/db/orm';
import { createSpamActivities } from './spam';

/** Every activity the worker registers, bound to the process's ORM. */
export function createActivities(deps: { orm: Orm }) {
  return { ...createSpamActivities(deps.orm) };
}
