import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  REPO_ROOT,
  anchorsOf,
  brokenLink,
  headingSlug,
  linksOf,
  markdownFilesUnder,
  resolveLink,
} from './markdown-links';

// The README is the front door and docs/README.md the index behind it: every page is linked
// from the index (two clicks from the README), every relative link and anchor leads somewhere,
// the README stays short, and the pages users read name no issue or commit.

const README = path.join(REPO_ROOT, 'README.md');
const INDEX = path.join(REPO_ROOT, 'docs/README.md');
const CONTRIBUTING = path.join(REPO_ROOT, 'CONTRIBUTING.md');
const CHART_README = path.join(REPO_ROOT, 'deploy/helm/formward/README.md');
const README_MAX_LINES = 250;

const read = (file: string) => fs.readFileSync(file, 'utf8');
const relative = (file: string) => path.relative(REPO_ROOT, file);
const userDocs = () => [README, ...markdownFilesUnder('docs')];

/** The lines of `text` that match `pattern`, as "file:line: text". */
function linesMatching(file: string, text: string, pattern: RegExp): string[] {
  return text
    .split('\n')
    .map((line, i) => ({ line, at: `${relative(file)}:${i + 1}` }))
    .filter(({ line }) => pattern.test(line))
    .map(({ line, at }) => `${at}: ${line.trim()}`);
}

describe('the anchors GitHub gives headings', () => {
  it('lower-cases, drops punctuation but - and _, and turns spaces into -', () => {
    expect(headingSlug('Budgets against amplification')).toBe('budgets-against-amplification');
    expect(headingSlug('The worker process of `formward start`')).toBe(
      'the-worker-process-of-formward-start',
    );
    expect(headingSlug('Retries, timeouts and the guard')).toBe('retries-timeouts-and-the-guard');
    expect(headingSlug('On the production Temporal: the server on PostgreSQL')).toBe(
      'on-the-production-temporal-the-server-on-postgresql',
    );
    expect(headingSlug('Uploads, input_and [caching](x.md)')).toBe('uploads-input_and-caching');
  });

  it('numbers repeated headings and ignores headings in code', () => {
    const anchors = anchorsOf('# A\n\n## Use\n\n```sh\n# not a heading\n```\n\n## Use\n');
    expect([...anchors]).toEqual(['a', 'use', 'use-1']);
  });
});

describe('the docs index', () => {
  it('links every page of docs/ and docs/api/', () => {
    const linked = new Set(
      linksOf(INDEX, read(INDEX)).map((link) => resolveLink(link)?.file ?? ''),
    );
    const pages = markdownFilesUnder('docs').filter((file) => file !== INDEX);
    expect(pages.filter((page) => !linked.has(page)).map(relative)).toEqual([]);
  });

  it('is linked from the README', () => {
    const targets = linksOf(README, read(README)).map((link) => resolveLink(link)?.file);
    expect(targets).toContain(INDEX);
  });
});

describe('relative links', () => {
  it('in README.md, CONTRIBUTING.md, docs/ and the chart lead to a file and heading that exist', () => {
    const files = [README, CONTRIBUTING, CHART_README, ...markdownFilesUnder('docs')];
    const broken = files.flatMap((file) =>
      linksOf(file, read(file))
        .map(brokenLink)
        .filter((problem) => problem !== null),
    );
    expect(broken).toEqual([]);
  });

  it('are checked: a missing heading is reported', () => {
    const link = { file: README, line: 1, target: 'docs/README.md#no-such-heading' };
    expect(brokenLink(link)).toMatch(/no heading with that anchor/);
    expect(brokenLink({ ...link, target: 'docs/no-such-page.md' })).toMatch(/no such file/);
  });
});

describe('the README', () => {
  it(`has at most ${README_MAX_LINES} lines`, () => {
    expect(read(README).trimEnd().split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
  });
});

describe('pages users read', () => {
  // "issue 20", "issues 3", "#123"; '#' after a letter or digit is an anchor or a colour.
  const ISSUE = /\bissues?\s+#?\d+\b|(?<![\w&/#-])#\d+\b/i;
  // A commit: 7 to 40 lower-case hex digits with at least one letter and one digit, standing
  // alone (not the random part of a file name, message id or fixture folder like `x-5eedf89525`).
  const COMMIT = /(?<![\w./-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w@-]|\.\w)/;

  it('name no issue', () => {
    const hits = userDocs().flatMap((file) => linesMatching(file, read(file), ISSUE));
    expect(hits).toEqual([]);
  });

  it('name no commit hash', () => {
    const hits = userDocs().flatMap((file) => linesMatching(file, read(file), COMMIT));
    expect(hits).toEqual([]);
  });

  it('the patterns catch what they are for', () => {
    expect(ISSUE.test('the targets of issue 20')).toBe(true);
    expect(ISSUE.test('fixed in #123.')).toBe(true);
    expect(ISSUE.test('see [Scale](production.md#scale), colour #1d4ed8')).toBe(false);
    expect(COMMIT.test('measured at 92535e7 with')).toBe(true);
    expect(COMMIT.test('the run at (b9e34b6, one run) and 4fc6c2b.')).toBe(true);
    expect(COMMIT.test('4,800 submissions at 1000000 a day, deadbeef')).toBe(false);
    expect(COMMIT.test('mailbox show 20260504T101112123Z-5eedf89525.eml')).toBe(false);
  });
});
