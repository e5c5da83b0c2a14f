import fs from 'node:fs';
import path from 'node:path';

// Just enough Markdown reading to check the docs' links the way GitHub resolves them: no
// renderer, so fenced and inline code are blanked first and never yield a link or heading.

export const REPO_ROOT = path.resolve(__dirname, '../..');

export type MarkdownLink = { file: string; line: number; target: string };

/** The text with fenced code blocks and inline code blanked (line numbers kept). */
export function withoutCode(markdown: string): string {
  return withoutFences(markdown)
    .split('\n')
    .map((line) => line.replace(/(`+)[^`]*?\1/g, ''))
    .join('\n');
}

/** The text with fenced code blocks blanked (line numbers kept). */
function withoutFences(markdown: string): string {
  let fence: string | null = null;
  const lines = markdown.split('\n').map((line) => {
    const opener = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence === null && opener) {
      fence = opener[0]!.repeat(3);
      return '';
    }
    if (fence !== null) {
      if (line.trim().startsWith(fence)) fence = null;
      return '';
    }
    return line;
  });
  return lines.join('\n');
}

/**
 * GitHub's anchor of a heading: the rendered text lower-cased, every character but letters,
 * digits, marks, spaces, '-' and '_' dropped, spaces turned into '-'.
 */
export function headingSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image: its text
    .replace(/`/g, '')
    .replace(/\*/g, '');
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: its headings' slugs (repeats numbered) and HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  // Inline code stays: a heading's `code` is part of its anchor.
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = headingSlug(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const html of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(html[1]!);
  }
  return anchors;
}

/** The inline links and images of a file, outside code. */
export function linksOf(file: string, markdown: string): MarkdownLink[] {
  const text = withoutCode(markdown);
  const links: MarkdownLink[] = [];
  for (const match of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const line = text.slice(0, match.index).split('\n').length;
    links.push({ file, line, target: match[1]! });
  }
  return links;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** Where a relative link leads: the absolute file and the anchor, or null when external. */
export function resolveLink(link: MarkdownLink): { file: string; anchor: string | null } | null {
  if (isExternal(link.target)) return null;
  const [pathPart, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const file =
    pathPart === '' ? link.file : path.resolve(path.dirname(link.file), decodeURI(pathPart));
  return { file, anchor: anchor ?? null };
}

/** What is wrong with a relative link (a missing file or anchor), or null when it holds. */
export function brokenLink(link: MarkdownLink): string | null {
  const resolved = resolveLink(link);
  if (!resolved) return null;
  const where = `${path.relative(REPO_ROOT, link.file)}:${link.line} → ${link.target}`;
  if (!fs.existsSync(resolved.file)) return `${where}: no such file`;
  if (resolved.anchor === null || resolved.anchor === '') return null;
  if (!resolved.file.endsWith('.md')) return `${where}: an anchor into a file that is not Markdown`;
  const anchors = anchorsOf(fs.readFileSync(resolved.file, 'utf8'));
  return anchors.has(resolved.anchor) ? null : `${where}: no heading with that anchor`;
}

/** The Markdown files under `dir` (relative to the repository), recursively, as absolute paths. */
export function markdownFilesUnder(dir: string): string[] {
  const root = path.join(REPO_ROOT, dir);
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(root, name))
    .sort();
}
