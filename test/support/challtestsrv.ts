import path from 'node:path';
import { freePort } from '../../src/embedded/free-port';
import { startLocalService, toolFromScript } from './local-service';

/**
 * pebble-challtestsrv (built beside Pebble by scripts/pebble.sh) as a DNS server on 127.0.0.1:
 * the records a test publishes through its management API are what Formward's resolver
 * (DNS_SERVERS) and Pebble's validation both see. Names without records get no answer: the
 * default A and AAAA answers are off, and so are its own challenge servers.
 */
export async function startChallTestSrv() {
  const binary = path.join(path.dirname(toolFromScript('pebble.sh')), 'pebble-challtestsrv');
  const dnsPort = await freePort();
  const managementPort = await freePort();
  const service = await startLocalService(
    'pebble-challtestsrv',
    binary,
    [
      ['-dnsserver', `127.0.0.1:${dnsPort}`],
      ['-management', `127.0.0.1:${managementPort}`],
      ['-defaultIPv4', ''],
      ['-defaultIPv6', ''],
      ['-http01', ''],
      ['-https01', ''],
      ['-tlsalpn01', ''],
      ['-doh', ''],
    ].flat(),
    { ports: [managementPort, dnsPort] },
  );
  const managementUrl = `http://127.0.0.1:${managementPort}`;

  const manage = async (action: string, body: Record<string, unknown>) => {
    const answer = await fetch(`${managementUrl}/${action}`, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    if (!answer.ok) {
      throw new Error(`challtestsrv /${action} answered ${answer.status}: ${await answer.text()}`);
    }
  };
  const fqdn = (name: string) => (name.endsWith('.') ? name : `${name}.`);

  return {
    /** `127.0.0.1:PORT`, the form DNS_SERVERS and Pebble's -dnsserver take. */
    dnsAddress: `127.0.0.1:${dnsPort}`,
    addA: (host: string, addresses: string[]) => manage('add-a', { host: fqdn(host), addresses }),
    clearA: (host: string) => manage('clear-a', { host: fqdn(host) }),
    setTxt: (host: string, value: string) => manage('set-txt', { host: fqdn(host), value }),
    clearTxt: (host: string) => manage('clear-txt', { host: fqdn(host) }),
    setCname: (host: string, target: string) =>
      manage('set-cname', { host: fqdn(host), target: fqdn(target) }),
    clearCname: (host: string) => manage('clear-cname', { host: fqdn(host) }),
    log: service.log,
    stop: service.stop,
  };
}

export type ChallTestSrv = Awaited<ReturnType<typeof startChallTestSrv>>;
