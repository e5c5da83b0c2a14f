// The entity types as the layers above the domain see them: src/http reads entities through
// here, never from src/db (eslint.config.mjs). Types only: loading and changing rows goes
// through the domain's functions.
export type {
  Account,
  ApiKey,
  AuditEvent,
  DeliveryAttempt,
  Domain,
  Form,
  Membership,
  Plugin,
  Session,
  Submission,
  SubmissionFile,
  User,
} from '../db/entities';
