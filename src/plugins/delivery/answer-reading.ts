/**
 * A third-party API's refusal (Airtable, Notion) as the delivery log words it, and whether a
 * retry could help.
 */
export type AnswerReading = { error: string; permanent: boolean };
