import http from 'node:http';

/**
 * The Temporal SDK's worker metrics (temporal_*): its runtime serves them in the Prometheus
 * format on a loopback port of its own (src/temporal/runtime-logger.ts); our /metrics fetches
 * that text and appends it, so each process stays one scrape target.
 */
let sdkAddress: string | null = null;

const FETCH_TIMEOUT_MS = 2_000;

/** Where the SDK's runtime serves its metrics (`127.0.0.1:port`); set once, by the worker. */
export function setTemporalSdkMetricsAddress(address: string): void {
  sdkAddress = address;
}

/** The SDK's metrics text, or '' when there is none (no worker here, or it did not answer). */
export function temporalSdkMetrics(): Promise<string> {
  const address = sdkAddress;
  if (!address) return Promise.resolve('');
  return new Promise((resolve) => {
    const req = http.get(`http://${address}/metrics`, { timeout: FETCH_TIMEOUT_MS }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return resolve('');
      }
      res.setEncoding('utf8');
      let text = '';
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
      res.on('error', () => resolve(''));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', () => resolve(''));
  });
}
