import http from 'node:http';

export type HostAnswer = { status: number; headers: http.IncomingHttpHeaders; text: string };

/**
 * One request to `url` with another `Host` header than its own (fetch does not let a caller
 * choose it): how a custom domain's visitor reaches the server behind a proxy keeping Host.
 */
export function requestWithHost(
  url: string,
  host: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HostAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? 'GET', headers: { ...options.headers, host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
