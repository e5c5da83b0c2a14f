import fs from 'node:fs';
import path from 'node:path';
import { DefaultLogger, Runtime, Worker, type ReplayResult } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { workflowInterceptorModules } from '../../src/temporal/workflow-code';
import { historyFromJSON, type History } from './history-json';

// Every recorded history of every released shape of the submission and recovery workflows
// replays against the current workflow code: a change of the commands they issue without
// patched() fails here (test/fixtures/workflow-histories/README.md).

const fixtures = path.resolve(__dirname, '../fixtures/workflow-histories');

const LOCAL_STEPS = ['local checkSpam', 'local planDeliveries'];
const deliveries = (count: number) => Array<string>(count).fill('activity deliverWebhook');
const EMAIL = 'activity sendNotificationEmail';
const PATCH = 'patch plugin-types';
const LOCAL_FIRST = [PATCH, 'patch local-first-attempt'];
const AUTORESPONSE = ['patch autoresponse', 'activity sendAutoresponse'];
const locals = (count: number, type = 'deliverWebhook') =>
  Array<string>(count).fill(`local ${type}`);
const children = (count: number) => Array<string>(count).fill('child submissionWorkflow');
const PAGE = 'local recoveryPage';
const PROGRESS = 'local recordRecoveryProgress';
/** A recovery's child: no spam check, no plan, its one plugin, first attempt local. */
const REDELIVERY = [...LOCAL_FIRST, ...locals(1)];
const DELETE_DELIVERED = ['patch delete-after-delivery', 'local deleteDeliveredSubmission'];
const REDELIVERY_RETRIED = [...REDELIVERY, 'timer', ...deliveries(1)];

/**
 * Each released shape's folder and the commands its code issued in each scenario (retries
 * schedule no new command). A new shape adds its folder here; the old ones stay.
 */
const SHAPES: Record<string, Record<string, string[]>> = {
  // Commit f520858: checkSpam and planDeliveries as local activities, no patch marker, and the
  // e-mail only when the form has addresses.
  'v1-released-f520858': {
    live: [...LOCAL_STEPS, ...deliveries(2), EMAIL],
    'live-no-recipients': [...LOCAL_STEPS, ...deliveries(1)],
    'test-mode': [...LOCAL_STEPS, ...deliveries(2), EMAIL],
    'replay-mode': ['local planDeliveries', ...deliveries(2)],
    spam: ['local checkSpam'],
    'webhook-retries': [...LOCAL_STEPS, ...deliveries(4), EMAIL],
  },
  // patched('plugin-types'): the marker after planDeliveries, then one activity per plugin of
  // every type (deliverSlack, deliverDiscord, deliverEmailPlugin beside deliverWebhook).
  'v2-plugin-types': {
    live: [...LOCAL_STEPS, PATCH, ...deliveries(2), 'activity deliverSlack', EMAIL],
    'live-no-recipients': [...LOCAL_STEPS, PATCH, ...deliveries(1)],
    'test-mode': [...LOCAL_STEPS, PATCH, ...deliveries(2), EMAIL],
    'replay-mode': ['local planDeliveries', PATCH, ...deliveries(2)],
    spam: ['local checkSpam'],
    'webhook-retries': [...LOCAL_STEPS, PATCH, ...deliveries(4), EMAIL],
    'plugin-types': [
      ...LOCAL_STEPS,
      PATCH,
      ...deliveries(1),
      'activity deliverEmailPlugin',
      'activity deliverSlack',
      'activity deliverDiscord',
    ],
  },
  // patched('local-first-attempt'): each delivery's first attempt a local activity (its
  // marker recorded when it completes, so after the e-mail's scheduling); a failed one that
  // may be retried, a timer, then one regular activity for the other attempts.
  'v3-local-first': {
    live: [...LOCAL_STEPS, ...LOCAL_FIRST, EMAIL, ...locals(2), 'local deliverSlack'],
    'live-no-recipients': [...LOCAL_STEPS, ...LOCAL_FIRST, ...locals(1)],
    'test-mode': [...LOCAL_STEPS, ...LOCAL_FIRST, EMAIL, ...locals(2)],
    'replay-mode': ['local planDeliveries', ...LOCAL_FIRST, ...locals(2)],
    spam: ['local checkSpam'],
    // Fails then succeeds; plugin deleted; fails every attempt; times out every attempt: three
    // first attempts failed retryably, so three timers and three regular activities.
    'webhook-retries': [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      EMAIL,
      ...locals(3),
      'timer',
      'timer',
      ...locals(1),
      'timer',
      ...deliveries(3),
    ],
    'plugin-types': [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      ...locals(1),
      'local deliverEmailPlugin',
      'local deliverSlack',
      'local deliverDiscord',
      'timer',
      'timer',
      'activity deliverSlack',
      'activity deliverDiscord',
    ],
  },
  // patched('autoresponse'): asked only when the plan has an autoresponse to send and the run
  // is not a re-delivery; its marker, then the `sendAutoresponse` activity, after the
  // deliveries' and the e-mail's scheduling (retries of it schedule no new command).
  'v4-autoresponse': {
    live: [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      EMAIL,
      ...AUTORESPONSE,
      ...locals(2),
      'local deliverSlack',
    ],
    'live-no-recipients': [...LOCAL_STEPS, ...LOCAL_FIRST, ...locals(1)],
    'test-mode': [...LOCAL_STEPS, ...LOCAL_FIRST, EMAIL, ...AUTORESPONSE, ...locals(2)],
    'replay-mode': ['local planDeliveries', ...LOCAL_FIRST, ...locals(2)],
    spam: ['local checkSpam'],
    'webhook-retries': [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      EMAIL,
      ...locals(3),
      'timer',
      'timer',
      ...locals(1),
      'timer',
      ...deliveries(3),
    ],
    'plugin-types': [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      ...locals(1),
      'local deliverEmailPlugin',
      'local deliverSlack',
      'local deliverDiscord',
      'timer',
      'timer',
      'activity deliverSlack',
      'activity deliverDiscord',
    ],
    'autoresponse-retries': [...LOCAL_STEPS, ...LOCAL_FIRST, ...AUTORESPONSE, ...locals(1)],
  },
  // patched('delete-after-delivery'): after a run whose deliveries all succeeded, its marker
  // and the local deleteDeliveredSubmission, last; other runs issue what v3 issued.
  'v4-delete-after-delivery': {
    live: [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      EMAIL,
      ...locals(2),
      'local deliverSlack',
      ...DELETE_DELIVERED,
    ],
    'live-no-recipients': [...LOCAL_STEPS, ...LOCAL_FIRST, ...locals(1), ...DELETE_DELIVERED],
    'test-mode': [...LOCAL_STEPS, ...LOCAL_FIRST, EMAIL, ...locals(2)],
    'replay-mode': ['local planDeliveries', ...LOCAL_FIRST, ...locals(2), ...DELETE_DELIVERED],
    spam: ['local checkSpam'],
    'webhook-retries': [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      EMAIL,
      ...locals(3),
      'timer',
      'timer',
      ...locals(1),
      'timer',
      ...deliveries(3),
    ],
    'plugin-types': [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      ...locals(1),
      'local deliverEmailPlugin',
      'local deliverSlack',
      'local deliverDiscord',
      'timer',
      'timer',
      'activity deliverSlack',
      'activity deliverDiscord',
    ],
  },
  // The destinations (Google Sheets, Airtable, Notion, Teams, Telegram) added no command and no
  // patch: the current code's shape with every patch, recorded with them in the plan.
  'v5-destinations': {
    live: [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      EMAIL,
      ...AUTORESPONSE,
      ...locals(2),
      'local deliverSlack',
      ...DELETE_DELIVERED,
    ],
    'live-no-recipients': [...LOCAL_STEPS, ...LOCAL_FIRST, ...locals(1), ...DELETE_DELIVERED],
    'test-mode': [...LOCAL_STEPS, ...LOCAL_FIRST, EMAIL, ...AUTORESPONSE, ...locals(2)],
    'replay-mode': ['local planDeliveries', ...LOCAL_FIRST, ...locals(2), ...DELETE_DELIVERED],
    spam: ['local checkSpam'],
    'webhook-retries': [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      EMAIL,
      ...locals(3),
      'timer',
      'timer',
      ...locals(1),
      'timer',
      ...deliveries(3),
    ],
    'plugin-types': [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      ...locals(1),
      'local deliverEmailPlugin',
      'local deliverSlack',
      'local deliverDiscord',
      'timer',
      'timer',
      'activity deliverSlack',
      'activity deliverDiscord',
    ],
    'autoresponse-retries': [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      ...AUTORESPONSE,
      ...locals(1),
      ...DELETE_DELIVERED,
    ],
    destinations: [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      ...locals(1),
      'local deliverGoogleSheets',
      'local deliverAirtable',
      'local deliverNotion',
      'local deliverTeams',
      'local deliverTelegram',
      'timer',
      'activity deliverGoogleSheets',
    ],
  },
  // patched('submission-events') (docs/manage-links.md): the v5 scenarios unchanged, a
  // submitter's edit (a re-delivery with `event`) and a submitter's delete.
  'v6-submission-events': {
    live: [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      EMAIL,
      ...AUTORESPONSE,
      ...locals(2),
      'local deliverSlack',
      ...DELETE_DELIVERED,
    ],
    'live-no-recipients': [...LOCAL_STEPS, ...LOCAL_FIRST, ...locals(1), ...DELETE_DELIVERED],
    'test-mode': [...LOCAL_STEPS, ...LOCAL_FIRST, EMAIL, ...AUTORESPONSE, ...locals(2)],
    'replay-mode': ['local planDeliveries', ...LOCAL_FIRST, ...locals(2), ...DELETE_DELIVERED],
    spam: ['local checkSpam'],
    'webhook-retries': [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      EMAIL,
      ...locals(3),
      'timer',
      'timer',
      ...locals(1),
      'timer',
      ...deliveries(3),
    ],
    'plugin-types': [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      ...locals(1),
      'local deliverEmailPlugin',
      'local deliverSlack',
      'local deliverDiscord',
      'timer',
      'timer',
      'activity deliverSlack',
      'activity deliverDiscord',
    ],
    'autoresponse-retries': [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      ...AUTORESPONSE,
      ...locals(1),
      ...DELETE_DELIVERED,
    ],
    destinations: [
      ...LOCAL_STEPS,
      ...LOCAL_FIRST,
      ...locals(1),
      'local deliverGoogleSheets',
      'local deliverAirtable',
      'local deliverNotion',
      'local deliverTeams',
      'local deliverTelegram',
      'timer',
      'activity deliverGoogleSheets',
    ],
    // A submitter's edit: a re-delivery with `event` in its input (the same commands).
    'submitter-edit': ['local planDeliveries', ...LOCAL_FIRST, ...locals(1), ...DELETE_DELIVERED],
    // A submitter's delete: its marker, its own plan, each webhook's first attempt local.
    'submitter-delete': [
      'patch submission-events',
      'local planDeletionDeliveries',
      ...locals(2),
      'timer',
      ...deliveries(1),
    ],
  },
  // recoveryWorkflow as released (no patch): a page of candidates, one child submission
  // workflow each at most ratePerSecond a second (a timer between), then the progress; each
  // child's history (`<scenario>.submission-<id>`) is the current submission shape with
  // `recover` set.
  'recovery-v1': {
    'recovery-redelivers-all': [PAGE, ...children(2), 'timer', ...children(1), PROGRESS],
    'recovery-redelivers-all.submission-201': REDELIVERY,
    'recovery-redelivers-all.submission-202': REDELIVERY,
    'recovery-redelivers-all.submission-203': REDELIVERY_RETRIED,
    'recovery-redelivery-fails': [PAGE, ...children(2), PROGRESS],
    'recovery-redelivery-fails.submission-204': REDELIVERY,
    'recovery-redelivery-fails.submission-205': REDELIVERY_RETRIED,
    'recovery-plugin-gone': [PAGE, PROGRESS],
  },
};

type Recorded = { shape: string; scenario: string; json: { events: unknown[] } };

const recorded: Recorded[] = fs
  .readdirSync(fixtures, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((shape) =>
    fs
      .readdirSync(path.join(fixtures, shape.name))
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({
        shape: shape.name,
        scenario: path.basename(file, '.json'),
        json: JSON.parse(fs.readFileSync(path.join(fixtures, shape.name, file), 'utf8')),
      })),
  );
const idOf = ({ shape, scenario }: Recorded) => `${shape}/${scenario}`;

/** The commands a history shows, in order: activities, local activities, timers and patches. */
function commandsOf(history: History): string[] {
  const decode = (data: Uint8Array | null | undefined) =>
    JSON.parse(Buffer.from(data ?? []).toString('utf8'));
  return (history.events ?? []).flatMap((event) => {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) return [`activity ${scheduled.activityType?.name}`];
    if (event.timerStartedEventAttributes) return ['timer'];
    const child = event.startChildWorkflowExecutionInitiatedEventAttributes;
    if (child) return [`child ${child.workflowType?.name}`];
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName === 'core_patch') {
      return [`patch ${decode(marker.details?.['patch-data']?.payloads?.[0]?.data).id}`];
    }
    if (marker?.markerName === 'core_local_activity') {
      return [`local ${decode(marker.details?.data?.payloads?.[0]?.data).activity_type}`];
    }
    return [];
  });
}

const results = new Map<string, ReplayResult>();

beforeAll(async () => {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // Already installed in this process: keep it.
  }
  const histories = recorded.map((entry) => ({
    workflowId: idOf(entry),
    history: historyFromJSON(entry.json),
  }));
  const replays = Worker.runReplayHistories(
    {
      workflowsPath: path.resolve(__dirname, '../../workflows/index.ts'),
      // As the worker runs them: with the bundle's tracing interceptors (docs/tracing.md).
      interceptors: { workflowModules: workflowInterceptorModules() },
    },
    histories,
  );
  for await (const result of replays) results.set(result.workflowId, result);
});

describe('recorded workflow histories', () => {
  it('cover every scenario of every released shape, and only those', () => {
    const shapes = [...new Set(recorded.map((entry) => entry.shape))].sort();
    expect(shapes).toEqual(Object.keys(SHAPES).sort());
    for (const [shape, scenarios] of Object.entries(SHAPES)) {
      const found = recorded.filter((entry) => entry.shape === shape).map((e) => e.scenario);
      expect(found.sort(), shape).toEqual(Object.keys(scenarios).sort());
    }
  });

  it('are the shapes they are named for', () => {
    for (const entry of recorded) {
      const commands = commandsOf(historyFromJSON(entry.json));
      expect(commands, idOf(entry)).toEqual(SHAPES[entry.shape]?.[entry.scenario]);
    }
  });

  it.each(recorded.map((entry) => [idOf(entry)]))(
    '%s replays on the current workflow code',
    (workflowId) => {
      const result = results.get(workflowId);
      expect(result, 'replayed').toBeDefined();
      expect(result!.error?.message).toBeUndefined();
    },
  );
});
