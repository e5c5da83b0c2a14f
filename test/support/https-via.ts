import https from 'node:https';
import type { PeerCertificate, TLSSocket } from 'node:tls';

export type HttpsAnswer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The certificate the server presented, verified against `ca` for `host`. */
  certificate: PeerCertificate;
};

/**
 * One HTTPS request for `https://{host}{path}` sent to 127.0.0.1:`port`, as `curl --resolve
 * host:port:127.0.0.1 --cacert` would: SNI and Host are `host`, and the certificate must chain
 * to `ca` and name `host`. Rejects when the TLS handshake fails.
 */
export type HttpsViaOptions = {
  /** PEM of the only CA trusted. */
  ca: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
};

export function httpsVia(
  port: number,
  host: string,
  path: string,
  options: HttpsViaOptions,
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port,
        servername: host,
        path,
        method: options.method ?? 'GET',
        ca: options.ca,
        agent: false,
        headers: { host, ...options.headers },
        timeout: 30_000,
      },
      (response) => {
        const certificate = (response.socket as TLSSocket).getPeerCertificate();
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text,
            certificate,
          }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error(`https://${host}${path}: timed out`)));
    request.on('error', reject);
    request.end(options.body);
  });
}
