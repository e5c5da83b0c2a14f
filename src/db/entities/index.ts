import { AccountSchema } from './account';
import { ApiKeySchema } from './api-key';
import { DeliveryAttemptSchema } from './delivery-attempt';
import { FormSchema } from './form';
import { PluginSchema } from './plugin';
import { SessionSchema } from './session';
import { SubmissionSchema } from './submission';
import { SubmissionFileSchema } from './submission-file';
import { UserSchema } from './user';

export { Account } from './account';
export { ApiKey } from './api-key';
export { DeliveryAttempt } from './delivery-attempt';
export { Form } from './form';
export { Plugin } from './plugin';
export { Session } from './session';
export { Submission } from './submission';
export { SubmissionFile } from './submission-file';
export { User } from './user';

export const entities = [
  AccountSchema,
  UserSchema,
  ApiKeySchema,
  SessionSchema,
  FormSchema,
  SubmissionSchema,
  SubmissionFileSchema,
  PluginSchema,
  DeliveryAttemptSchema,
];
