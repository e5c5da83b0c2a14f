// `npm run build`'s second step: the dashboard's templates and assets are not TypeScript, so
// tsc leaves them behind; copy them next to the compiled code that reads them (__dirname).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
for (const folder of ['views', 'assets']) {
  const from = path.join(root, 'src/http/dashboard', folder);
  const to = path.join(root, 'dist/src/http/dashboard', folder);
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(from, to, { recursive: true });
  console.log(`dashboard ${folder}: ${path.relative(root, to)}`);
}
