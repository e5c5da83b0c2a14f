import { z } from 'zod';

/*
 * What a delivery needs of a Notion database (`GET /v1/databases/{id}`, Notion-Version
 * 2022-06-28): its properties by name, their types, and the options of its selects. The
 * title property is the one a page must fill.
 */

export type NotionProperty = {
  name: string;
  type: string;
  /** A select's or multi-select's existing options (new ones are never created). */
  options: string[];
};

export type NotionDatabase = {
  id: string;
  titleProperty: string;
  properties: NotionProperty[];
};

const optionList = z.object({ options: z.array(z.object({ name: z.string() })).catch([]) });

const databaseAnswer = z.object({
  object: z.literal('database'),
  id: z.string(),
  properties: z.record(
    z.string(),
    z.object({
      name: z.string().optional(),
      type: z.string(),
      select: optionList.optional().catch(undefined),
      multi_select: optionList.optional().catch(undefined),
    }),
  ),
});

/** The database an answer describes, or null when it is no database with a title property. */
export function readNotionDatabase(body: string | null): NotionDatabase | null {
  let json: unknown;
  try {
    json = JSON.parse(body ?? '');
  } catch {
    return null;
  }
  const parsed = databaseAnswer.safeParse(json);
  if (!parsed.success) return null;
  const properties = Object.entries(parsed.data.properties).map(([key, property]) => ({
    name: property.name ?? key,
    type: property.type,
    options: (property.select ?? property.multi_select)?.options.map((o) => o.name) ?? [],
  }));
  const title = properties.find((property) => property.type === 'title');
  return title ? { id: parsed.data.id, titleProperty: title.name, properties } : null;
}

/** The property a submitted field fills: the same name, else the same name in any case. */
export function propertyNamed(database: NotionDatabase, name: string): NotionProperty | undefined {
  return (
    database.properties.find((property) => property.name === name) ??
    database.properties.find((property) => property.name.toLowerCase() === name.toLowerCase())
  );
}
