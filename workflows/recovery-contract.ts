// What crosses the recovery workflow's boundary (docs/recovery.md). Pure: workflow code, its
// activities and the starter in src/temporal import it.
import type { DeliveryPolicy } from './delivery-kinds';

/** Where the last page of candidates ended (keyset on created_at, id). */
export type RecoveryCursor = { createdAt: string; id: string };

export type RecoveryProgress = { cursor: RecoveryCursor | null; done: number; failed: number };

export type RecoveryWorkflowInput = {
  recoveryId: string;
  pluginId: string;
  pluginType: string;
  /** Child submission workflows started per second at most (RECOVERY_RATE). */
  ratePerSecond: number;
  /** The delivery policy each re-delivery runs with. */
  delivery: DeliveryPolicy;
  /** Carried over continue-as-new: where the previous run stopped and what it counted. */
  progress?: RecoveryProgress;
};

export type RecoveryWorkflowResult = {
  recoveryId: string;
  status: 'completed' | 'failed';
  done: number;
  failed: number;
};

export type RecoveryCandidate = { submissionId: string; deliveryId: string; attemptOffset: number };

export type RecoveryPageInput = {
  recoveryId: string;
  after: RecoveryCursor | null;
  limit: number;
};

/** The activity's answer; `stopped` says why the run cannot go on (plugin deleted, disabled). */
export type RecoveryPageResult = {
  stopped: string | null;
  candidates: RecoveryCandidate[];
  cursor: RecoveryCursor | null;
};

export type RecoveryProgressInput = {
  recoveryId: string;
  done: number;
  failed: number;
  status: 'running' | 'completed' | 'failed';
};

/** One workflow per recovery run. */
export const recoveryWorkflowId = (recoveryId: string) => `recovery-${recoveryId}`;

/** The re-delivery of one submission within a run: a submission workflow of its own. */
export const recoveryChildWorkflowId = (submissionId: string, recoveryId: string) =>
  `submission-${submissionId}-recover-${recoveryId}`;
