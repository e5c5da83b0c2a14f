/** How far back the submission lists look (docs/api-conventions.md, Limits: the specification's values plus `all`). */
export const RANGES = ['24h', '7d', '30d', 'all'] as const;
export type Range = (typeof RANGES)[number];
