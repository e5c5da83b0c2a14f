/** Public URLs used in links; `start` fills them in once the port is bound. */
export type PublicUrls = { base: string; ingest: string };
