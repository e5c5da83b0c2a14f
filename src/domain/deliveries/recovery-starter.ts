// What starts, watches and ends a recovery run's workflow: src/temporal/recovery-starter.ts
// implements it; plugin recovery and account deletion use it.

/** Starts the workflow of a run (src/temporal/recovery-starter.ts implements it). */
export type RecoveryStarter = {
  start(run: {
    recoveryId: string;
    pluginId: string;
    pluginType: string;
  }): Promise<{ workflowId: string }>;
  /** Whether the run's workflow still runs; null when Temporal cannot be asked. */
  isRunning(workflowId: string): Promise<boolean | null>;
  /** Ends a run's workflow (its account is deleted); one already gone is fine. */
  terminate(workflowId: string, reason: string): Promise<void>;
};
