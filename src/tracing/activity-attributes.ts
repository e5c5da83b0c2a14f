import { trace } from '@opentelemetry/api';
import type { ActivityInterceptors } from '@temporalio/worker';
import type { Context } from '@temporalio/activity';
import { DELIVERY_ACTIVITY } from '../../workflows/delivery-kinds';

/** Delivery activities by name, and the plugin type each delivers to. */
const PLUGIN_TYPES: Record<string, string> = Object.fromEntries(
  Object.entries(DELIVERY_ACTIVITY).map(([type, activity]) => [activity, type]),
);

/** `submission-{id}` and its replays `submission-{id}-replay-{nonce}` (workflow-ids.ts). */
const SUBMISSION_WORKFLOW = /^submission-(\d+)(-replay-|$)/;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * Names the submission (and for deliveries the delivery and plugin type) on the activity's
 * span, which Temporal's inbound interceptor opened just outside this one.
 */
export function activityAttributes(ctx: Context): ActivityInterceptors {
  return {
    inbound: {
      execute(input, next) {
        const span = trace.getActiveSpan();
        if (span) {
          const [arg] = input.args;
          const first = (arg && typeof arg === 'object' ? arg : {}) as Record<string, unknown>;
          const workflowId = ctx.info.workflowExecution?.workflowId ?? '';
          const submissionId =
            text(first.submissionId) ?? SUBMISSION_WORKFLOW.exec(workflowId)?.[1];
          const formId = text(first.formId);
          const deliveryId = text(first.deliveryId);
          if (submissionId) span.setAttribute('formward.submission_id', submissionId);
          if (formId) span.setAttribute('formward.form_id', formId);
          if (deliveryId) span.setAttribute('formward.delivery_id', deliveryId);
          const pluginType = PLUGIN_TYPES[ctx.info.activityType];
          if (pluginType) span.setAttribute('formward.plugin_type', pluginType);
        }
        return next(input);
      },
    },
  };
}
