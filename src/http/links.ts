export type Link = { rel: string; href: string; method?: string };

export const link = (rel: string, href: string, method?: string): Link =>
  method && method !== 'GET' ? { rel, href, method } : { rel, href };
