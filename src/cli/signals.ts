/** Calls `handler` once on SIGINT or SIGTERM; a second signal exits at once. */
export function onShutdownSignal(handler: () => void): void {
  let received = false;
  const listener = (signal: NodeJS.Signals) => {
    if (received) process.exit(signal === 'SIGINT' ? 130 : 143);
    received = true;
    handler();
  };
  process.on('SIGINT', listener);
  process.on('SIGTERM', listener);
}
