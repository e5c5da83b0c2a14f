import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestStack } from '../support/fixture';
import { multipart, postMultipart } from '../support/ingest-requests';
import { onlySubmission } from '../support/stored-submissions';

// Uploads are written to files under DATA_DIR while they arrive, not collected in memory
// (docs/api-conventions.md, Ingest); the files are gone once the answer is sent.
const t = useTestStack();
const MIB = 1024 * 1024;

const uploadsDir = () => path.join(t.stack.config.dataDir, 'uploads');
const spooled = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()) : []);
const spooledBytes = () =>
  spooled().reduce((sum, name) => sum + fs.statSync(path.join(uploadsDir(), name)).size, 0);

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(condition(), what).toBe(true);
}

describe('streamed uploads', () => {
  it('a file part goes to disk as it arrives and is removed after it is stored', async () => {
    const form = await t.api.createForm({ accept_files: true });
    const content = Buffer.alloc(4 * MIB, 9);
    const { body, contentType } = multipart([
      { name: 'note', value: 'slow upload' },
      { name: 'big', filename: 'big.bin', content },
    ]);
    const half = body.length - 2 * MIB;
    const answer = new Promise<number>((resolve, reject) => {
      const req = http.request(form.submission_url, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          'content-length': body.length,
          accept: 'application/json',
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write(body.subarray(0, half));
      // The first part of the file is on disk before the rest is even sent.
      until(() => spooledBytes() >= MIB, 'the file part is spooled to DATA_DIR/uploads').then(
        () => req.end(body.subarray(half)),
        reject,
      );
    });
    expect(await answer).toBe(200);
    const stored = await onlySubmission(t.stack, form.id);
    expect(stored.payload_json.big).toMatchObject({ size: content.length });
    await until(() => spooled().length === 0, 'the spooled file is removed');
  });

  it('a refused upload leaves nothing behind', async () => {
    const form = await t.api.createForm({ accept_files: false });
    const res = await postMultipart(
      form.submission_url,
      [{ name: 'cv', filename: 'cv.bin', content: Buffer.alloc(MIB, 1) }],
      { Accept: 'application/json' },
    );
    expect(res.status).toBe(422);
    await until(() => spooled().length === 0, 'nothing is left in DATA_DIR/uploads');
  });
});
