import net from 'node:net';
import os from 'node:os';
import { cleanAddress, sameAddress } from './address-policy';
import { BlockedAddressError } from './destination-url';

/** Thrown when a delivery would connect to this Formward itself: never retried. */
export class OwnListenerError extends BlockedAddressError {
  override name = 'OwnListenerError';

  constructor(address: string, port: number, listener: string) {
    super(address, `this Formward's own listener, ${listener}`);
    this.message = `refused: the address is this Formward's own listener (${address} port ${port}: ${listener})`;
  }
}

type Listener = { address: string; port: number; name: string };

/** How long the addresses of BASE_URL and INGEST_URL are kept before they are resolved again. */
const RESOLVED_FOR_MS = 60_000;

const WILDCARDS = new Set(['0.0.0.0', '::']);

/** Every address of this machine's interfaces (what a wildcard bind listens on). */
function localAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .map((entry) => entry?.address ?? '')
    .filter(Boolean);
}

const portOf = (url: URL) =>
  Number(url.port || (url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : 0));

/**
 * The addresses where this Formward answers (docs/webhook-delivery.md, Address guard): the HTTP
 * server this process bound, and the addresses BASE_URL and INGEST_URL resolve to, each with
 * its port. The creation check compares host names only; a name an attacker points at us
 * later, or an address WEBHOOK_ALLOW_PRIVATE exempts, is caught here, at connect time, on the
 * address actually dialled, so a delivery can never post back into this service.
 */
export class OwnListeners {
  private readonly bound: Listener[] = [];
  private resolved: { key: string; until: number; listeners: Promise<Listener[]> } | null = null;

  constructor(
    private readonly options: {
      /** BASE_URL, INGEST_URL and FORM_PAGES_TARGET (ownServiceUrls), read late: they may follow the port actually bound. */
      urls: () => string[];
      lookupHost: (host: string) => Promise<string[]>;
    },
  ) {}

  /** This process's HTTP server listens there (a wildcard address: on every local address). */
  addBound(address: string, port: number): void {
    this.bound.push({ address: cleanAddress(address), port, name: 'the HTTP server' });
  }

  /** Which of our listeners `address:port` is, or null when it is none of them. */
  async find(address: string, port: number): Promise<string | null> {
    for (const listener of this.bound) {
      if (listener.port !== port) continue;
      const addresses = WILDCARDS.has(listener.address) ? localAddresses() : [listener.address];
      const loopback = WILDCARDS.has(listener.address) && /^127\./.test(address);
      if (loopback || addresses.some((own) => sameAddress(own, address)))
        return `${listener.name} on port ${listener.port}`;
    }
    for (const listener of await this.publicListeners()) {
      if (listener.port === port && sameAddress(listener.address, address)) return listener.name;
    }
    return null;
  }

  /** Throws OwnListenerError when `address:port` is one of ours. */
  async assertNotOwn(address: string, port: number): Promise<void> {
    const listener = await this.find(address, port);
    if (listener) throw new OwnListenerError(address, port, listener);
  }

  private publicListeners(): Promise<Listener[]> {
    const urls = this.options.urls();
    const key = urls.join(' ');
    const now = Date.now();
    if (!this.resolved || this.resolved.key !== key || this.resolved.until < now) {
      this.resolved = { key, until: now + RESOLVED_FOR_MS, listeners: this.resolve(urls) };
    }
    return this.resolved.listeners;
  }

  private async resolve(urls: string[]): Promise<Listener[]> {
    const listeners = await Promise.all(
      urls.map(async (text): Promise<Listener[]> => {
        let url: URL;
        try {
          url = new URL(text);
        } catch {
          return [];
        }
        const host = cleanAddress(url.hostname);
        const addresses = net.isIP(host)
          ? [host]
          : host === 'localhost'
            ? ['127.0.0.1', '::1']
            : await this.options.lookupHost(host).catch(() => [] as string[]);
        return addresses.map((address) => ({
          address: cleanAddress(address),
          port: portOf(url),
          name: url.origin,
        }));
      }),
    );
    return listeners.flat();
  }
}
