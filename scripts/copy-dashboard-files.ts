// `npm run build`'s second step: the dashboard's templates and assets are not TypeScript, so
// tsc leaves them behind; copy them next to the compiled code that reads them (__dirname of
// src/http/kit/chrome/render-page.ts and assets.ts).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const CHROME = 'src/http/kit/chrome';
for (const folder of ['templates', 'assets']) {
  const from = path.join(root, CHROME, folder);
  const to = path.join(root, 'dist', CHROME, folder);
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(from, to, { recursive: true });
  console.log(`dashboard ${folder}: ${path.relative(root, to)}`);
}
