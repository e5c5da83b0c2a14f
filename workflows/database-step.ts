// Pure: imported by workflow code.

/**
 * Database-only steps run as local activities: in the worker, without a round trip through
 * the Temporal server each, and retried patiently through a database restart.
 */
export const DATABASE_STEP = {
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '1m',
    maximumAttempts: 20,
  },
} as const;
