import type { LookupAddress, LookupOneOptions } from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import type { buildConnector } from 'undici';
import { cleanAddress, isLoopbackAddress, parseAllowList, type AllowList } from './address-policy';
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
 * Who chose where a request goes, and so which addresses it may reach.
 * - `public`: a URL a tenant (a plugin) or a third party (a CAPTCHA provider) names. HTTPS
 *   only, no private or loopback address unless WEBHOOK_ALLOW_PRIVATE exempts it, and never
 *   one of this service's own listeners.
 * - `operator`: a URL the operator set in the configuration (OIDC_ISSUER and the endpoints
 *   its discovery document names), often a provider on the private network (an in-cluster
 *   Keycloak). Any address, as before OIDC went through here; plain http only to a loopback
 *   address (config/oidc.ts allows it for an issuer on this machine). No own-listener guard:
 *   a provider behind the same reverse proxy as BASE_URL is a legitimate setup, and a
 *   sign-in's requests start no further ones, so there is no loop to stop.
 */
export type DestinationPolicy = 'public' | 'operator';

const NO_EXEMPTIONS = parseAllowList([]);

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
 * The undici connector of every outbound request (docs/webhook-delivery.md): the connect
 * timeout around the whole TCP + TLS set-up, and the destination policy's checks on every
 * address dialled, literal or resolved, checked again on the connected socket's peer. For
 * `public` destinations: TLS only, the private-address guard, and never one of this
 * service's own listeners (own-listeners.ts), whatever WEBHOOK_ALLOW_PRIVATE exempts.
 */
export function guardedConnector(options: {
  connectTimeoutMs: number;
  /** `public` unless said. */
  destinations?: DestinationPolicy;
  /** WEBHOOK_ALLOW_PRIVATE, for `public` destinations; none exempted when absent. */
  allowList?: AllowList;
  lookupHost: (host: string) => Promise<string[]>;
  ownListeners?: OwnListeners;
  dial?: Dial;
}): buildConnector.connector {
  const dial = options.dial ?? ((connectOptions) => tls.connect(connectOptions));
  const sessions = new TlsSessionCache();
  const operator = options.destinations === 'operator';
  const allowList = options.allowList ?? NO_EXEMPTIONS;
  const checkPublic: DialCheck = async (address, port, hostname) => {
    assertDialAllowed(address, allowList, hostname);
    await options.ownListeners?.assertNotOwn(address, port);
  };
  const checkLoopback: DialCheck = async (address) => assertLoopback(address);
  const checkNothing: DialCheck = async () => {};
  return (target, callback) => {
    const host = cleanAddress(target.hostname);
    const plain = operator && target.protocol === 'http:';
    if (target.protocol !== 'https:' && !plain) {
      callback(
        new Error(
          operator
            ? 'only https:// (or http:// to this machine) is allowed'
            : 'webhooks are delivered over https only',
        ),
        null,
      );
      return;
    }
    const check = plain ? checkLoopback : operator ? checkNothing : checkPublic;
    const port = Number(target.port || (plain ? 80 : 443));
    const literal = net.isIP(host) ? check(host, port) : Promise.resolve();
    literal
      .then(() => connect(target, host, port, check, plain, callback))
      .catch((error: Error) => callback(error, null));
  };

  function connect(
    target: buildConnector.Options,
    host: string,
    port: number,
    check: DialCheck,
    plain: boolean,
    callback: buildConnector.Callback,
  ) {
    let settled = false;
    const settle = (error: Error | null, socket: net.Socket | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        socket?.destroy();
        callback(error, null);
      } else callback(null, socket!);
    };
    const lookup = guardedLookup(options.lookupHost, check, port) as unknown as net.LookupFunction;
    const servername = net.isIP(host) ? undefined : (target.servername ?? host);
    // The session is bound to the name the certificate was checked for; the address guard
    // runs on every connection all the same.
    const sessionKey = `${servername ?? host}:${port}`;
    const socket: net.Socket = plain
      ? net.connect({ host, port, lookup })
      : dial({
          host,
          port,
          servername,
          session: sessions.get(sessionKey),
          lookup,
          ALPNProtocols: ['http/1.1'],
        });
    if (!plain) socket.on('session', (session: Buffer) => sessions.set(sessionKey, session));
    const timer = setTimeout(
      () =>
        settle(
          new ConnectTimeoutError(`no connection within ${options.connectTimeoutMs} ms`),
          socket,
        ),
      options.connectTimeoutMs,
    );
    socket.once(plain ? 'connect' : 'secureConnect', () => {
      try {
        const peer = cleanAddress(socket.remoteAddress ?? '');
        if (plain) assertLoopback(peer);
        else if (!operator) assertDialAllowed(peer, allowList, net.isIP(host) ? undefined : host);
        settle(null, socket);
      } catch (error) {
        settle(error as Error, socket);
      }
    });
    socket.once('error', (error) => {
      // A handshake that failed may have offered a session the receiver no longer takes.
      if (!settled && !plain) sessions.delete(sessionKey);
      settle(error, socket);
    });
  }
}

/** Plain http (an `operator` destination only) reaches this machine and nothing else. */
function assertLoopback(address: string): void {
  if (isLoopbackAddress(address)) return;
  throw new BlockedAddressError(address, 'plain http is allowed only to this machine');
}
