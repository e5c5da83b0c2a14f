/**
 * TLS sessions of recent receivers, by server name (or address) and port, so a new
 * connection to a receiver seen before resumes its session instead of a full handshake (a
 * key exchange and a certificate chain check, the larger part of a new connection's CPU).
 * Bounded: the oldest entry goes when a new one would pass `maxEntries`.
 */
export class TlsSessionCache {
  private readonly sessions = new Map<string, Buffer>();

  constructor(private readonly maxEntries = 1000) {}

  get(key: string): Buffer | undefined {
    return this.sessions.get(key);
  }

  set(key: string, session: Buffer): void {
    this.sessions.delete(key);
    this.sessions.set(key, session);
    if (this.sessions.size > this.maxEntries) {
      this.sessions.delete(this.sessions.keys().next().value!);
    }
  }

  /** A session that failed to resume (or a connection that failed) is not offered again. */
  delete(key: string): void {
    this.sessions.delete(key);
  }
}
