/** The part of node's DNS resolver we use; tests point it at a local DNS server. */
export type DnsResolver = {
  resolveCname(hostname: string): Promise<string[]>;
  resolveTxt(hostname: string): Promise<string[][]>;
  resolve4(hostname: string): Promise<string[]>;
  resolve6(hostname: string): Promise<string[]>;
};
