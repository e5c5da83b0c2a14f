import { Account } from './account';
import { ApiKey } from './api-key';
import { AuditEvent } from './audit-event';
import { DeliveryAttempt } from './delivery-attempt';
import { Domain } from './custom-domain';
import { Form } from './form';
import { Membership } from './membership';
import { Plugin } from './plugin';
import { Session } from './session';
import { Submission } from './submission';
import { SubmissionFile } from './submission-file';
import { User } from './user';

export {
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
};

export const entities = [
  Account,
  User,
  Membership,
  ApiKey,
  Session,
  Form,
  Submission,
  SubmissionFile,
  Plugin,
  DeliveryAttempt,
  AuditEvent,
  Domain,
];
