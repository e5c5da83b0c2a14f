import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';

const own = (name: string) => path.join(__dirname, 'assets', name);
const fromPackage = (specifier: string) => createRequire(__filename).resolve(specifier);

/**
 * `/assets/<name>`: our stylesheet and setup script, and the browser files of htmx and the
 * ALTCHA widget straight from node_modules (no front-end build). The names are fixed, so
 * nothing else on disk can be asked for.
 */
const ASSETS: Record<string, () => string> = {
  'app.css': () => own('app.css'),
  'altcha-setup.js': () => own('altcha-setup.js'),
  'copy-button.js': () => own('copy-button.js'),
  'htmx.min.js': () => fromPackage('htmx.org/dist/htmx.min.js'),
  'altcha.js': () => path.join(altchaDist(), 'external', 'altcha.min.js'),
  'altcha.css': () => path.join(altchaDist(), 'external', 'altcha.css'),
  'altcha-pbkdf2.js': () => path.join(altchaDist(), 'workers', 'pbkdf2.js'),
  'stats-charts.js': () => own('stats-charts.js'),
  'uplot.js': () => fromPackage('uplot/dist/uPlot.iife.min.js'),
  'uplot.css': () => fromPackage('uplot/dist/uPlot.min.css'),
};

/** The widget's package exports no `package.json`; find its dist through its main file. */
function altchaDist(): string {
  const main = fromPackage('altcha');
  return path.join(main.slice(0, main.lastIndexOf(`${path.sep}dist${path.sep}`)), 'dist');
}

/** One hour in browsers and proxies; ETag and Last-Modified make a later check cheap. */
const MAX_AGE_MS = 3600_000;

export function assetsRouter(): Router {
  const router = express.Router();
  const files = new Map(Object.entries(ASSETS).map(([name, locate]) => [name, locate()]));
  router.get('/assets/:name', (req, res, next) => {
    const file = files.get(req.params.name);
    if (!file) return next();
    res.sendFile(file, {
      maxAge: MAX_AGE_MS,
      headers: { 'Cache-Control': 'public, max-age=3600' },
    });
  });
  return router;
}
