import { fieldText } from '../manage/plugin-configs';
import { propertyNamed, type NotionDatabase, type NotionProperty } from './notion-database';

/*
 * The page a submission becomes (`POST /v1/pages`, docs/plugins.md "notion"): every submitted
 * field fills the database property of its name when its value fits that property's type, and
 * every other field is a paragraph of the page, so nothing is lost. Values are plain text
 * objects: Notion parses no markdown, link or mention in them.
 */

/** Notion's limits: characters in one text object, elements in one array, blocks a request. */
export const NOTION_TEXT_LIMIT = 2000;
export const NOTION_ARRAY_LIMIT = 100;

/** The properties a submission's id and time fill when the database has them. */
export const NOTION_ID_PROPERTY = 'Submission ID';
export const NOTION_RECEIVED_PROPERTY = 'Received at';

export type PageSource = {
  submissionId: string;
  createdAt: Date;
  formName: string;
  payload: Record<string, unknown>;
};

type TextObject = {
  type: 'text';
  text: { content: string };
  annotations?: { bold: true };
};
type Paragraph = { object: 'block'; type: 'paragraph'; paragraph: { rich_text: TextObject[] } };

/** Text as text objects of at most 2000 characters (never splitting a surrogate pair). */
export function textChunks(text: string, maxChunks = NOTION_ARRAY_LIMIT): TextObject[] {
  const chunks: TextObject[] = [];
  let rest = text;
  while (rest.length > 0 && chunks.length < maxChunks) {
    let cut = Math.min(NOTION_TEXT_LIMIT, rest.length);
    if (cut < rest.length && /[\ud800-\udbff]/.test(rest[cut - 1]!)) cut--;
    chunks.push({ type: 'text', text: { content: rest.slice(0, cut) } });
    rest = rest.slice(cut);
  }
  if (rest.length > 0) {
    const last = chunks.at(-1)!.text;
    last.content = `${last.content.slice(0, NOTION_TEXT_LIMIT - 1)}…`;
  }
  return chunks;
}

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1', 'checked', 'x']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0', '']);
const NUMBER = /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function httpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/**
 * A value as the property's type takes it, or null when it does not fit (it then goes into
 * the page's body): a select only takes an option the database has (a submitter creates
 * none), a URL property only http(s) addresses.
 */
export function propertyValue(property: NotionProperty, value: unknown): object | null {
  const text = fieldText(value).trim();
  switch (property.type) {
    case 'title':
      return { title: textChunks(fieldText(value)) };
    case 'rich_text':
      return { rich_text: textChunks(fieldText(value)) };
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return { number: value };
      if (text === '') return { number: null };
      return NUMBER.test(text) && Number.isFinite(Number(text)) ? { number: Number(text) } : null;
    case 'email':
    case 'phone_number':
      if (text === '') return { [property.type]: null };
      return text.length <= 200 && !/\s/.test(text) ? { [property.type]: text } : null;
    case 'url':
      if (text === '') return { url: null };
      return text.length <= NOTION_TEXT_LIMIT && httpUrl(text) ? { url: text } : null;
    case 'checkbox': {
      if (typeof value === 'boolean') return { checkbox: value };
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return { checkbox: true };
      return FALSE_WORDS.has(word) ? { checkbox: false } : null;
    }
    case 'select':
      if (text === '') return { select: null };
      return property.options.includes(text) ? { select: { name: text } } : null;
    case 'multi_select': {
      const names = (Array.isArray(value) ? value.map(fieldText) : text.split(','))
        .map((name) => name.trim())
        .filter(Boolean);
      return names.every((name) => property.options.includes(name))
        ? { multi_select: [...new Set(names)].map((name) => ({ name })) }
        : null;
    }
    case 'date':
      if (text === '') return { date: null };
      return ISO_DATE.test(text) && !Number.isNaN(Date.parse(text))
        ? { date: { start: text } }
        : null;
    default:
      return null; // people, files, relations, formulas…: not something a form fills
  }
}

function paragraph(richText: TextObject[]): Paragraph {
  return { object: 'block', type: 'paragraph', paragraph: { rich_text: richText } };
}

/** `name: value`, the name in bold. */
function fieldLine(name: string, value: string): TextObject[] {
  const label: TextObject = {
    type: 'text',
    text: { content: `${name.slice(0, 200)}: ` },
    annotations: { bold: true },
  };
  return [label, ...textChunks(value, NOTION_ARRAY_LIMIT - 1)];
}

/**
 * The page's paragraphs: one a field while they fit in a request's 100 blocks, otherwise
 * fields share paragraphs (a line each) of at most 100 text objects.
 */
function bodyBlocks(lines: TextObject[][]): Paragraph[] {
  if (lines.length <= NOTION_ARRAY_LIMIT) return lines.map(paragraph);
  const blocks: Paragraph[] = [];
  let current: TextObject[] = [];
  for (const line of lines) {
    if (current.length + line.length > NOTION_ARRAY_LIMIT) {
      blocks.push(paragraph(current));
      current = [];
    }
    if (current.length > 0) {
      const [label, ...rest] = line;
      current.push({ ...label!, text: { content: `\n${label!.text.content}` } }, ...rest);
    } else current.push(...line);
  }
  if (current.length > 0) blocks.push(paragraph(current));
  return blocks.slice(0, NOTION_ARRAY_LIMIT);
}

/** The body of `POST /v1/pages` for one submission into `database`. */
export function notionPageBody(database: NotionDatabase, source: PageSource) {
  // A Map: property and field names are data, `__proto__` included.
  const properties = new Map<string, object>();
  const lines: TextObject[][] = [];
  const fill = (name: string, value: unknown): boolean => {
    const property = propertyNamed(database, name);
    if (!property || properties.has(property.name)) return false;
    const filled = propertyValue(property, value);
    if (filled) properties.set(property.name, filled);
    return filled !== null;
  };
  // The submission's own id and time first: a submitted field of that name cannot replace them.
  const receivedAt = source.createdAt.toISOString();
  const idFilled = fill(NOTION_ID_PROPERTY, source.submissionId);
  const timeFilled = fill(NOTION_RECEIVED_PROPERTY, receivedAt);
  for (const [name, value] of Object.entries(source.payload))
    if (!fill(name, value)) lines.push(fieldLine(name, fieldText(value)));
  if (!idFilled || !timeFilled)
    lines.push(fieldLine('Submission', `${source.submissionId}, received ${receivedAt}`));
  if (!properties.has(database.titleProperty))
    properties.set(database.titleProperty, {
      title: textChunks(`${source.formName} · ${receivedAt}`),
    });
  return {
    parent: { database_id: database.id },
    properties: Object.fromEntries(properties),
    children: bodyBlocks(lines),
  };
}
