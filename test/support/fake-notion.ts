import { randomUUID } from 'node:crypto';
import { startHttpsReceiver, type ReceivedWebhook, type Reply } from './https-receiver';
import type { TestCertificates } from './test-ca';

// Shared by the test suites: no test-runner imports here.

/** A database of the fake: its id (dashed), properties by name, and whether it is shared. */
export type FakeNotionDatabase = {
  id: string;
  properties: Record<string, { type: string; options?: string[] }>;
  /** Shared with the integration (default true); otherwise it answers 404 as Notion does. */
  shared?: boolean;
};

export type NotionPage = {
  id: string;
  databaseId: string;
  properties: Record<string, Record<string, unknown>>;
  children: Array<{
    type: string;
    paragraph?: { rich_text: Array<{ text: { content: string } }> };
  }>;
};

const notionError = (status: number, code: string, message: string): Reply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ object: 'error', status, code, message }),
});

const bare = (id: string) => id.replaceAll('-', '').toLowerCase();

/** Rich text as Notion checks it: at most 100 text objects of at most 2000 characters. */
function richTextProblem(path: string, value: unknown): string | null {
  if (!Array.isArray(value)) return `${path} should be an array`;
  if (value.length > 100) return `${path}.length should be ≤ \`100\``;
  for (const [i, item] of (value as Array<{ text?: { content?: unknown } }>).entries()) {
    const content = item?.text?.content;
    if (typeof content !== 'string') return `${path}[${i}].text.content should be defined`;
    if (content.length > 2000) return `${path}[${i}].text.content.length should be ≤ \`2000\``;
  }
  return null;
}

/**
 * Notion's `GET /v1/databases/{id}` and `POST /v1/pages` on 127.0.0.1 over real TLS (the test
 * CA), answering as the documented API does: 401 without the token, 400 without a
 * `Notion-Version`, 404 for a database that does not exist or is not shared, 400
 * `validation_error` for a property the database lacks, a value of another type, a page
 * without its title property or text over Notion's limits, 200 otherwise, keeping the pages.
 * `script` queues answers (a 429 with `Retry-After`, a 5xx) for the next requests.
 */
export async function startFakeNotion(
  certificates: TestCertificates,
  options: { token: string; databases: FakeNotionDatabase[] },
) {
  const pages: NotionPage[] = [];
  const scripted: Reply[] = [];
  const databaseOf = (id: string) =>
    options.databases.find((d) => bare(d.id) === bare(id) && d.shared !== false);
  const notFound = (id: string) =>
    notionError(
      404,
      'object_not_found',
      `Could not find database with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
    );

  const databaseAnswer = (database: FakeNotionDatabase) => ({
    object: 'database',
    id: database.id,
    title: [{ type: 'text', text: { content: 'Leads' }, plain_text: 'Leads' }],
    properties: Object.fromEntries(
      Object.entries(database.properties).map(([name, property], i) => [
        name,
        {
          id: `p${i}`,
          name,
          type: property.type,
          [property.type]: property.options
            ? {
                options: property.options.map((option, j) => ({
                  id: `o${j}`,
                  name: option,
                  color: 'default',
                })),
              }
            : {},
        },
      ]),
    ),
  });

  const createPage = (request: ReceivedWebhook): Reply => {
    let body: { parent?: { database_id?: unknown }; properties?: unknown; children?: unknown };
    try {
      body = JSON.parse(request.body) as typeof body;
    } catch {
      return notionError(400, 'invalid_json', 'Error parsing JSON body.');
    }
    const parentId = body.parent?.database_id;
    if (typeof parentId !== 'string')
      return notionError(400, 'validation_error', 'body.parent.database_id should be defined');
    const database = databaseOf(parentId);
    if (!database) return notFound(parentId);
    const properties = (body.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [name, value] of Object.entries(properties)) {
      const property = database.properties[name];
      if (!property)
        return notionError(400, 'validation_error', `${name} is not a property that exists.`);
      if (Object.keys(value).join() !== property.type)
        return notionError(400, 'validation_error', `${name} is expected to be ${property.type}.`);
      if (property.type === 'title' || property.type === 'rich_text') {
        const problem = richTextProblem(
          `body.properties.${name}.${property.type}`,
          value[property.type],
        );
        if (problem)
          return notionError(400, 'validation_error', `body failed validation: ${problem}`);
      }
    }
    const title = Object.entries(database.properties).find(([, p]) => p.type === 'title')![0];
    if (!properties[title])
      return notionError(400, 'validation_error', `${title} is required: the title property`);
    const children = (body.children ?? []) as NotionPage['children'];
    if (!Array.isArray(children) || children.length > 100)
      return notionError(400, 'validation_error', 'body.children.length should be ≤ `100`');
    for (const [i, block] of children.entries()) {
      const problem = richTextProblem(
        `body.children[${i}].paragraph.rich_text`,
        block.paragraph?.rich_text,
      );
      if (problem)
        return notionError(400, 'validation_error', `body failed validation: ${problem}`);
    }
    const page: NotionPage = { id: randomUUID(), databaseId: database.id, properties, children };
    pages.push(page);
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ object: 'page', id: page.id, properties }),
    };
  };

  const answer = (request: ReceivedWebhook): Reply => {
    const next = scripted.shift();
    if (next) return next;
    if (request.headers.authorization !== `Bearer ${options.token}`)
      return notionError(401, 'unauthorized', 'API token is invalid.');
    if (!request.headers['notion-version'])
      return notionError(400, 'missing_version', 'Notion-Version header failed validation.');
    const path = request.path.split('?')[0]!;
    const read = /^\/v1\/databases\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && read) {
      const id = decodeURIComponent(read[1]!);
      const database = databaseOf(id);
      return database
        ? {
            status: 200,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(databaseAnswer(database)),
          }
        : notFound(id);
    }
    if (request.method === 'POST' && path === '/v1/pages') return createPage(request);
    return notionError(400, 'invalid_request_url', 'Invalid request URL.');
  };

  const server = await startHttpsReceiver(certificates, answer);
  return {
    url: server.url,
    /** Every request as it arrived (headers included). */
    received: server.received,
    /** The pages created, oldest first. */
    pages,
    /** Answers the next requests with these, in order, before looking at them. */
    script(...replies: Reply[]) {
      scripted.push(...replies);
    },
    waitFor: server.waitFor,
    close: server.close,
  };
}

export type FakeNotion = Awaited<ReturnType<typeof startFakeNotion>>;
