// The end-to-end run's settings (BENCH_E2E_* overrides), read by the run and the ceiling.
export const E2E_SETTINGS = {
  /** Submissions per second of the paced run, and how long it lasts. */
  rate: Number(process.env.BENCH_E2E_RATE || 80),
  durationS: Number(process.env.BENCH_E2E_DURATION || 60),
  warmupS: 3,
  /** Submissions per burst (once with the stack's worker, once with a second one). */
  burst: Number(process.env.BENCH_E2E_BURST || 1000),
  burstConcurrency: 20,
  /** How long to wait for the deliveries of the paced run, after its last answer. */
  waitS: 120,
  /** Pause after everything arrived, so late redeliveries are counted too. */
  graceS: 5,
};
export type E2eSettings = typeof E2E_SETTINGS;
