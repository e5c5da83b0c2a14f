import type { LookupAddress, LookupOneOptions } from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import type { buildConnector } from 'undici';
import { cleanAddress, type AllowList } from './address-policy';
import { assertDialAllowed, BlockedAddressError } from './destination-url';
import type { OwnListeners } from './own-listeners';
import { TlsSessionCache } from './tls-session-cache';

/** Opens the TLS socket; tests inject one that never connects to exercise the timeout. */
export type Dial = (options: tls.ConnectionOptions) => tls.TLSSocket;

export class ConnectTimeoutError extends Error {
  override name = 'ConnectTimeoutError';
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The checks on an address about to be dialled on `port`; throws BlockedAddressError.
 * `hostname`: the name it was resolved from, which the error names instead of the address.
 */
type DialCheck = (address: string, port: number, hostname?: string) => Promise<void>;

/**
 * A dns.lookup replacement for net.connect: resolves with `lookupHost` and hands net only the
 * addresses the policy allows, so the address actually dialled is always a checked one
 * (a DNS answer that changed since the plugin was created cannot reach an internal host, nor
 * this service itself).
 */
function guardedLookup(
  lookupHost: (host: string) => Promise<string[]>,
  check: DialCheck,
  port: number,
) {
  return (
    hostname: string,
    options: LookupOneOptions | { all?: boolean },
    callback: LookupCallback,
  ) => {
    lookupHost(hostname)
      .then(async (found) => {
        const allowed: LookupAddress[] = [];
        let refused: BlockedAddressError | null = null;
        for (const raw of found) {
          const address = cleanAddress(raw);
          try {
            await check(address, port, hostname);
            allowed.push({ address, family: net.isIP(address) });
          } catch (error) {
            if (!(error instanceof BlockedAddressError)) throw error;
            refused ??= error;
          }
        }
        if (allowed.length === 0) {
          const error =
            refused ??
            Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' });
          return callback(error as NodeJS.ErrnoException, '', 0);
        }
        if ('all' in options && options.all) return callback(null, allowed);
        callback(null, allowed[0]!.address, allowed[0]!.family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, '', 0));
  };
}

/**
 * The undici connector of webhook deliveries (docs/webhook-delivery.md): TLS only, the connect timeout
 * around the whole TCP + TLS set-up, and the private-address guard on every address dialled,
 * literal or resolved, checked again on the connected socket's peer; and never one of this
 * service's own listeners (own-listeners.ts), whatever WEBHOOK_ALLOW_PRIVATE exempts.
 */
export function guardedConnector(options: {
  connectTimeoutMs: number;
  allowList: AllowList;
  lookupHost: (host: string) => Promise<string[]>;
  ownListeners?: OwnListeners;
  dial?: Dial;
}): buildConnector.connector {
  const dial = options.dial ?? ((connectOptions) => tls.connect(connectOptions));
  const sessions = new TlsSessionCache();
  const check: DialCheck = async (address, port, hostname) => {
    assertDialAllowed(address, options.allowList, hostname);
    await options.ownListeners?.assertNotOwn(address, port);
  };
  return (target, callback) => {
    const host = cleanAddress(target.hostname);
    if (target.protocol !== 'https:') {
      callback(new Error('webhooks are delivered over https only'), null);
      return;
    }
    const port = Number(target.port || 443);
    const literal = net.isIP(host) ? check(host, port) : Promise.resolve();
    literal
      .then(() => connect(target, host, port, callback))
      .catch((error: Error) => callback(error, null));
  };

  function connect(
    target: buildConnector.Options,
    host: string,
    port: number,
    callback: buildConnector.Callback,
  ) {
    let settled = false;
    const settle = (error: Error | null, socket: tls.TLSSocket | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        socket?.destroy();
        callback(error, null);
      } else callback(null, socket!);
    };
    const servername = net.isIP(host) ? undefined : (target.servername ?? host);
    // The session is bound to the name the certificate was checked for; the address guard
    // runs on every connection all the same.
    const sessionKey = `${servername ?? host}:${port}`;
    const socket = dial({
      host,
      port,
      servername,
      session: sessions.get(sessionKey),
      lookup: guardedLookup(options.lookupHost, check, port) as unknown as net.LookupFunction,
      ALPNProtocols: ['http/1.1'],
    });
    socket.on('session', (session: Buffer) => sessions.set(sessionKey, session));
    const timer = setTimeout(
      () =>
        settle(
          new ConnectTimeoutError(`no connection within ${options.connectTimeoutMs} ms`),
          socket,
        ),
      options.connectTimeoutMs,
    );
    socket.once('secureConnect', () => {
      try {
        const peer = cleanAddress(socket.remoteAddress ?? '');
        assertDialAllowed(peer, options.allowList, net.isIP(host) ? undefined : host);
        settle(null, socket);
      } catch (error) {
        settle(error as Error, socket);
      }
    });
    socket.once('error', (error) => {
      // A handshake that failed may have offered a session the receiver no longer takes.
      if (!settled) sessions.delete(sessionKey);
      settle(error, socket);
    });
  }
}
