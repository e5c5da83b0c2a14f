/**
 * Calls `handler` once on SIGINT or SIGTERM. A second signal exits at once, unless
 * `repeatExits` is false: a supervised worker hears Ctrl-C from the terminal and its parent's
 * SIGTERM both, and its parent decides when waiting has lasted long enough.
 */
export function onShutdownSignal(handler: () => void, options = { repeatExits: true }): void {
  let received = false;
  const listener = (signal: NodeJS.Signals) => {
    if (received && options.repeatExits) process.exit(signal === 'SIGINT' ? 130 : 143);
    if (received) return;
    received = true;
    handler();
  };
  process.on('SIGINT', listener);
  process.on('SIGTERM', listener);
}
