// The runs record-workflow-histories.ts records, and activities that answer them as the real
// ones in activities/ do: the same names, results, failure types, details and retry decisions,
// without a database, receivers or SMTP. Every released shape of the workflow runs the same
// scenarios, so each shape's histories cover the same paths.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { DeliveryPolicy } from '../workflows/delivery-kinds';
import { DELIVERY_ACTIVITY, type DeliveryActivityName } from '../workflows/delivery-kinds';
import type {
  RecoveryCandidate,
  RecoveryPageInput,
  RecoveryPageResult,
  RecoveryProgressInput,
} from '../workflows/recovery-contract';
import {
  REDELIVERY,
  type AutoresponseInput,
  type AutoresponseResult,
  type DeliveryMode,
  type DeliveryOutcome,
  type DeliveryPlan,
  type DeliveryTarget,
  type NotificationResult,
  type SpamVerdict,
  type DeliveryInput,
  type DeletedSubmission,
  type SubmissionWorkflowInput,
} from '../workflows/submission-contract';
import { DELIVERY_FAILED, PLUGIN_UNAVAILABLE } from '../workflows/failure-types';

/** A receiver's answer to one attempt: an HTTP status, no answer in time, or its plugin is gone. */
export type Answer = number | 'hangs' | 'gone';

export type Scenario = {
  name: string;
  submissionId: string;
  mode: DeliveryMode;
  spam?: SpamVerdict;
  targets: DeliveryTarget[];
  /** Whether the form has notification addresses. */
  notify: boolean;
  /** Each webhook plugin's answers, attempt by attempt; the last one repeats. */
  answers: Record<string, Answer[]>;
  /**
   * From the 'autoresponse' shape on: the plan says to send the autoresponse, and the SMTP
   * server's answers to its attempts (250 accepted, 451 transient, the last one repeats).
   */
  autoresponse?: number[];
  /**
   * From the 'submission-events' shape on (docs/manage-links.md): a submitter's edit
   * (`submission.updated`, a re-delivery of version `version`) or delete (`submission.deleted`,
   * whose targets come from planDeletionDeliveries by `deleted.formId`).
   */
  event?: SubmissionWorkflowInput['event'];
  version?: number;
  deleted?: DeletedSubmission;
};

/** Fast retries, and an attempt timeout the dev server notices (it checks about once a second). */
export const RECORDING_POLICY: DeliveryPolicy = {
  initialIntervalMs: 200,
  backoffCoefficient: 2,
  maxAttempts: 4,
  attemptTimeoutMs: 1000,
};

const webhook = (pluginId: string): DeliveryTarget => ({ pluginId, pluginType: 'webhook' });

export const SCENARIOS: Scenario[] = [
  {
    name: 'live',
    submissionId: '101',
    mode: 'live',
    targets: [webhook('1'), webhook('2'), { pluginId: '3', pluginType: 'slack' }],
    notify: true,
    answers: { '1': [200], '2': [204] },
    autoresponse: [250],
  },
  {
    name: 'live-no-recipients',
    submissionId: '102',
    mode: 'live',
    targets: [webhook('4')],
    notify: false,
    answers: { '4': [200] },
  },
  {
    name: 'test-mode',
    submissionId: '103',
    mode: 'test',
    targets: [webhook('5'), webhook('6')],
    notify: true,
    answers: { '5': [200], '6': [500] },
    autoresponse: [250],
  },
  {
    // A re-delivery sends no autoresponse, whatever the plan says.
    name: 'replay-mode',
    submissionId: '104',
    mode: REDELIVERY,
    targets: [webhook('7'), webhook('8')],
    notify: true,
    answers: { '7': [200], '8': [202] },
    autoresponse: [250],
  },
  {
    name: 'spam',
    submissionId: '105',
    mode: 'live',
    spam: { isSpam: true, reason: 'links' },
    targets: [webhook('9')],
    notify: true,
    answers: { '9': [200] },
  },
  {
    name: 'webhook-retries',
    submissionId: '106',
    mode: 'live',
    targets: [webhook('10'), webhook('11'), webhook('12'), webhook('13')],
    notify: true,
    // Fails then succeeds; plugin deleted; fails every attempt; times out every attempt.
    answers: { '10': [503, 503, 200], '11': ['gone'], '12': [500], '13': ['hangs'] },
  },
  {
    // Recorded from the 'plugin-types' shape on: e-mail, Slack and Discord plugins beside a
    // webhook; the Slack channel throttles once, the Discord one refuses every attempt.
    name: 'plugin-types',
    submissionId: '107',
    mode: 'live',
    targets: [
      webhook('14'),
      { pluginId: '15', pluginType: 'email' },
      { pluginId: '16', pluginType: 'slack' },
      { pluginId: '17', pluginType: 'discord' },
    ],
    notify: false,
    answers: { '14': [200], '15': [250], '16': [429, 200], '17': [404] },
  },
  {
    // Recorded from the 'autoresponse' shape on: the SMTP server fails the autoresponse's
    // first attempt (retried by Temporal), then takes it.
    name: 'autoresponse-retries',
    submissionId: '108',
    mode: 'live',
    targets: [webhook('18')],
    notify: false,
    answers: { '18': [200] },
    autoresponse: [451, 250],
  },
  {
    // Recorded from the 'destinations' shape on: a spreadsheet, two databases and two chats
    // beside a webhook. The Sheets API throttles once; Notion refuses the token (401, for good:
    // the activity fails it without retry). A seventh plugin whose conditions the submission
    // does not match is not in the plan: its `skipped` record is the plan's own write.
    name: 'destinations',
    submissionId: '109',
    mode: 'live',
    targets: [
      webhook('19'),
      { pluginId: '20', pluginType: 'google_sheets' },
      { pluginId: '21', pluginType: 'airtable' },
      { pluginId: '22', pluginType: 'notion' },
      { pluginId: '23', pluginType: 'teams' },
      { pluginId: '24', pluginType: 'telegram' },
    ],
    notify: false,
    answers: { '19': [200], '20': [429, 200], '21': [200], '22': [401], '23': [202], '24': [200] },
  },
  {
    // Recorded from the 'submission-events' shape on: a submitter's edit, delivered as a
    // re-delivery with `event: submission.updated` (the same commands as 'replay-mode').
    name: 'submitter-edit',
    submissionId: '110',
    mode: REDELIVERY,
    event: 'submission.updated',
    version: 2,
    targets: [webhook('25')],
    notify: true,
    answers: { '25': [200] },
  },
  {
    // Recorded from the 'submission-events' shape on: a submitter's delete; the marker, the
    // local planDeletionDeliveries, then each webhook's delivery (one fails once).
    name: 'submitter-delete',
    submissionId: '111',
    mode: REDELIVERY,
    event: 'submission.deleted',
    deleted: { formId: '9111', formEndpointToken: 'tok111', deletedAt: '2026-11-29T12:00:00.000Z' },
    targets: [webhook('26'), webhook('27')],
    notify: false,
    answers: { '26': [200], '27': [503, 200] },
  },
];

/** A failed delivery a recovery re-delivers, and its receiver's answers attempt by attempt. */
export type RecoveryCandidateScenario = RecoveryCandidate & {
  /** From the delivery's first attempt: the `attemptOffset` failed ones come first. */
  answers: Answer[];
};

/** One run of `recoveryWorkflow` for one webhook plugin, and the children it starts. */
export type RecoveryScenario = {
  name: string;
  recoveryId: string;
  pluginId: string;
  ratePerSecond: number;
  candidates: RecoveryCandidateScenario[];
  /** The page's answer when the plugin was deleted or disabled before the run read it. */
  stopped?: string;
};

const failedFourTimes: Answer[] = [500, 500, 500, 500];

export const RECOVERY_SCENARIOS: RecoveryScenario[] = [
  {
    // Every re-delivery succeeds, one after a retry; two children a second, so a timer
    // separates the third child from the first two.
    name: 'recovery-redelivers-all',
    recoveryId: '1',
    pluginId: '21',
    ratePerSecond: 2,
    candidates: [
      {
        submissionId: '201',
        deliveryId: 'dlv_r1_201',
        attemptOffset: 4,
        answers: [...failedFourTimes, 200],
      },
      {
        submissionId: '202',
        deliveryId: 'dlv_r1_202',
        attemptOffset: 4,
        answers: [...failedFourTimes, 204],
      },
      {
        submissionId: '203',
        deliveryId: 'dlv_r1_203',
        attemptOffset: 4,
        answers: [...failedFourTimes, 503, 200],
      },
    ],
  },
  {
    // One re-delivery succeeds; the other's receiver fails every attempt, so the run counts
    // one done and one failed.
    name: 'recovery-redelivery-fails',
    recoveryId: '2',
    pluginId: '22',
    ratePerSecond: 10,
    candidates: [
      {
        submissionId: '204',
        deliveryId: 'dlv_r2_204',
        attemptOffset: 4,
        answers: [...failedFourTimes, 200],
      },
      { submissionId: '205', deliveryId: 'dlv_r2_205', attemptOffset: 4, answers: [500] },
    ],
  },
  {
    // The plugin was deleted before the first page: no child, the run is recorded as failed.
    name: 'recovery-plugin-gone',
    recoveryId: '3',
    pluginId: '23',
    ratePerSecond: 10,
    candidates: [],
    stopped: 'the plugin was deleted',
  },
];

/** The activities of every released shape (by name), answering each scenario by submission id. */
export function scenarioActivities(
  scenarios: Scenario[],
  recoveries: RecoveryScenario[] = RECOVERY_SCENARIOS,
) {
  // A recovery's child delivers to its run's one plugin, with the candidate's answers.
  const recoveryChildren: Scenario[] = recoveries.flatMap((recovery) =>
    recovery.candidates.map((candidate) => ({
      name: `${recovery.name}/${candidate.submissionId}`,
      submissionId: candidate.submissionId,
      mode: REDELIVERY,
      targets: [{ pluginId: recovery.pluginId, pluginType: 'webhook' }],
      notify: false,
      answers: { [recovery.pluginId]: candidate.answers },
    })),
  );
  const scenarioOf = (submissionId: string): Scenario => {
    const scenario = [...scenarios, ...recoveryChildren].find(
      (candidate) => candidate.submissionId === submissionId,
    );
    if (!scenario) throw new Error(`no scenario for submission ${submissionId}`);
    return scenario;
  };
  const recoveryOf = (recoveryId: string): RecoveryScenario => {
    const recovery = recoveries.find((candidate) => candidate.recoveryId === recoveryId);
    if (!recovery) throw new Error(`no scenario for recovery ${recoveryId}`);
    return recovery;
  };

  /** Every delivery activity answers alike: one answer an attempt, from the scenario. */
  async function deliver(input: DeliveryInput): Promise<DeliveryOutcome> {
    // Temporal counts this activity's attempts; after a local first attempt (and in a
    // recovery) the delivery's attempts number on from attemptOffset.
    const { attempt } = Context.current().info;
    const answers = scenarioOf(input.submissionId).answers[input.pluginId] ?? [200];
    const delivery = (input.attemptOffset ?? 0) + attempt;
    const answer = answers[Math.min(delivery, answers.length) - 1]!;
    if (answer === 'gone') {
      throw ApplicationFailure.nonRetryable(
        'the plugin was deleted or disabled; delivery stopped',
        PLUGIN_UNAVAILABLE,
        REDELIVERY,
      );
    }
    if (answer === 'hangs') {
      // Outlives the attempt's timeout; the worker's shutdown cancels what is left.
      await Context.current().sleep(RECORDING_POLICY.attemptTimeoutMs * 3);
      throw new Error('read timeout');
    }
    const ok = answer >= 200 && answer < 300;
    const outcome: DeliveryOutcome = {
      pluginId: input.pluginId,
      deliveryId: input.deliveryId,
      ok,
      statusCode: answer,
      error: ok ? null : `receiver answered ${answer}`,
      durationMs: 40 + attempt,
      attempt,
    };
    if (ok) return outcome;
    // A refused token (401) cannot change by retrying: the provider activities fail it at once.
    const final = input.mode === 'test' || answer === 401 || attempt >= input.maxAttempts;
    throw final
      ? ApplicationFailure.nonRetryable(outcome.error, DELIVERY_FAILED, outcome)
      : ApplicationFailure.retryable(outcome.error, DELIVERY_FAILED, outcome);
  }

  return {
    async checkSpam(submissionId: string): Promise<SpamVerdict> {
      return scenarioOf(submissionId).spam ?? { isSpam: false, reason: null };
    },
    async planDeliveries(submissionId: string): Promise<DeliveryPlan> {
      const { targets, notify, autoresponse } = scenarioOf(submissionId);
      // Every scenario's form deletes delivered submissions (read from the 'delete-after-delivery' shape on).
      return {
        targets,
        notify,
        autorespond: autoresponse !== undefined,
        deleteAfterDelivery: true,
      };
    },
    /** The deleted submission's scenario, found by its form. */
    async planDeletionDeliveries(formId: string): Promise<DeliveryTarget[]> {
      const scenario = scenarios.find((candidate) => candidate.deleted?.formId === formId);
      if (!scenario) throw new Error(`no scenario for form ${formId}`);
      return scenario.targets;
    },
    /** As activities/autoresponse.ts: sent, or a retryable failure until the last attempt. */
    async sendAutoresponse(input: AutoresponseInput): Promise<AutoresponseResult> {
      const { attempt } = Context.current().info;
      const answers = scenarioOf(input.submissionId).autoresponse ?? [250];
      const answer = answers[Math.min(attempt, answers.length) - 1]!;
      if (answer === 250) return { sent: true, deliveryId: input.deliveryId };
      const message = `${answer} try again later`;
      throw input.mode === 'test' || attempt >= input.maxAttempts
        ? ApplicationFailure.nonRetryable(message, DELIVERY_FAILED)
        : ApplicationFailure.retryable(message, DELIVERY_FAILED);
    },
    // Every plugin type's delivery activity (workflows/delivery-kinds.ts) answers alike.
    ...(Object.fromEntries(
      Object.values(DELIVERY_ACTIVITY).map((name) => [name, deliver]),
    ) as Record<DeliveryActivityName, typeof deliver>),
    /** One page holds every candidate (fewer than RECOVERY_PAGE_SIZE): the run's last. */
    async recoveryPage(input: RecoveryPageInput): Promise<RecoveryPageResult> {
      const recovery = recoveryOf(input.recoveryId);
      if (recovery.stopped) return { stopped: recovery.stopped, candidates: [], cursor: null };
      const candidates = recovery.candidates.map(({ submissionId, deliveryId, attemptOffset }) => ({
        submissionId,
        deliveryId,
        attemptOffset,
      }));
      const last = candidates.at(-1);
      return {
        stopped: null,
        candidates,
        cursor: last ? { createdAt: '2026-11-20T10:00:00.000Z', id: last.submissionId } : null,
      };
    },
    async recordRecoveryProgress(input: RecoveryProgressInput): Promise<void> {
      recoveryOf(input.recoveryId);
    },
    /** From the 'delete-after-delivery' shape on, after a run whose deliveries all succeeded. */
    async deleteDeliveredSubmission(submissionId: string): Promise<boolean> {
      return scenarioOf(submissionId).mode === 'live';
    },
    async sendNotificationEmail(submissionId: string): Promise<NotificationResult> {
      if (!scenarioOf(submissionId).notify) {
        return { sent: false, recipients: [], messageId: null, skipped: 'no_recipients' };
      }
      return {
        sent: true,
        recipients: ['owner@example.com'],
        messageId: `<submission-${submissionId}@formward.test>`,
      };
    },
  };
}
