import { Migration20261122000000Initial } from './Migration20261122000000Initial';
import { Migration20261123000100SpamRules } from './Migration20261123000100SpamRules';
import { Migration20261124000000ListOrderIndexes } from './Migration20261124000000ListOrderIndexes';
import { Migration20261125000200UploadLimits } from './Migration20261125000200UploadLimits';
import { Migration20261125000400LoginThrottle } from './Migration20261125000400LoginThrottle';
import { Migration20261126000200FileStorage } from './Migration20261126000200FileStorage';
import { Migration20261127000100AccountConfirmation } from './Migration20261127000100AccountConfirmation';
import { Migration20261127002000SenderEmailIndex } from './Migration20261127002000SenderEmailIndex';
import { Migration20261201000000EndpointHealth } from './Migration20261201000000EndpointHealth';
import { Migration20261202000000PluginRecoveries } from './Migration20261202000000PluginRecoveries';
import { Migration20261210000100AccountSecurity } from './Migration20261210000100AccountSecurity';
import { Migration20261210000200RecipientConfirmation } from './Migration20261210000200RecipientConfirmation';
import { Migration20261210000300AbuseBudgets } from './Migration20261210000300AbuseBudgets';
import { Migration20261210000400UploadReservations } from './Migration20261210000400UploadReservations';
import { Migration20261211002000PendingWorkflowStarts } from './Migration20261211002000PendingWorkflowStarts';
import { Migration20261211002100SubmissionsFillfactor } from './Migration20261211002100SubmissionsFillfactor';
import { Migration20261211002200BurstRuleIndex } from './Migration20261211002200BurstRuleIndex';
import { Migration20261211002300WorkflowStartClaims } from './Migration20261211002300WorkflowStartClaims';
import { Migration20261212000100FormCaptcha } from './Migration20261212000100FormCaptcha';
import { Migration20261212000200FormAutoresponse } from './Migration20261212000200FormAutoresponse';
import { Migration20261212000300FormRetention } from './Migration20261212000300FormRetention';
import { Migration20261212000400AutoresponseCaps } from './Migration20261212000400AutoresponseCaps';
import { Migration20261213000100Memberships } from './Migration20261213000100Memberships';
import { Migration20261213000200Invitations } from './Migration20261213000200Invitations';
import { Migration20261214000100TraceContext } from './Migration20261214000100TraceContext';
import { Migration20261215000100MailCapLedgers } from './Migration20261215000100MailCapLedgers';
import { Migration20261213000400UserIdentities } from './Migration20261213000400UserIdentities';
import { Migration20261213000300AuditEvents } from './Migration20261213000300AuditEvents';
import { Migration20261215000300InvitationDeclines } from './Migration20261215000300InvitationDeclines';
import { Migration20261216000100FormFields } from './Migration20261216000100FormFields';
import { Migration20261216000400CustomDomains } from './Migration20261216000400CustomDomains';
import { Migration20261217000100PluginRouting } from './Migration20261217000100PluginRouting';
import { Migration20261218000500DomainVerifications } from './Migration20261218000500DomainVerifications';
import { Migration20261219000100FormLimits } from './Migration20261219000100FormLimits';
import { Migration20261223000500ReceiptKeys } from './Migration20261223000500ReceiptKeys';
import { Migration20261224000100SubmitterAccess } from './Migration20261224000100SubmitterAccess';
import { Migration20261224000200ManageLinks } from './Migration20261224000200ManageLinks';
import { Migration20261224000300SubmissionVersions } from './Migration20261224000300SubmissionVersions';
import { Migration20261224000400ManageMailLinks } from './Migration20261224000400ManageMailLinks';

/** Every migration, in order. Listed explicitly so compiled and source runs find the same set. */
export const migrationsList = [
  { name: 'Migration20261122000000Initial', class: Migration20261122000000Initial },
  { name: 'Migration20261123000100SpamRules', class: Migration20261123000100SpamRules },
  {
    name: 'Migration20261124000000ListOrderIndexes',
    class: Migration20261124000000ListOrderIndexes,
  },
  { name: 'Migration20261125000200UploadLimits', class: Migration20261125000200UploadLimits },
  { name: 'Migration20261125000400LoginThrottle', class: Migration20261125000400LoginThrottle },
  { name: 'Migration20261126000200FileStorage', class: Migration20261126000200FileStorage },
  {
    name: 'Migration20261127000100AccountConfirmation',
    class: Migration20261127000100AccountConfirmation,
  },
  {
    name: 'Migration20261127002000SenderEmailIndex',
    class: Migration20261127002000SenderEmailIndex,
  },
  { name: 'Migration20261201000000EndpointHealth', class: Migration20261201000000EndpointHealth },
  {
    name: 'Migration20261202000000PluginRecoveries',
    class: Migration20261202000000PluginRecoveries,
  },
  {
    name: 'Migration20261210000100AccountSecurity',
    class: Migration20261210000100AccountSecurity,
  },
  {
    name: 'Migration20261210000200RecipientConfirmation',
    class: Migration20261210000200RecipientConfirmation,
  },
  { name: 'Migration20261210000300AbuseBudgets', class: Migration20261210000300AbuseBudgets },
  {
    name: 'Migration20261210000400UploadReservations',
    class: Migration20261210000400UploadReservations,
  },
  {
    name: 'Migration20261211002000PendingWorkflowStarts',
    class: Migration20261211002000PendingWorkflowStarts,
  },
  {
    name: 'Migration20261211002100SubmissionsFillfactor',
    class: Migration20261211002100SubmissionsFillfactor,
  },
  { name: 'Migration20261211002200BurstRuleIndex', class: Migration20261211002200BurstRuleIndex },
  {
    name: 'Migration20261211002300WorkflowStartClaims',
    class: Migration20261211002300WorkflowStartClaims,
  },
  { name: 'Migration20261212000100FormCaptcha', class: Migration20261212000100FormCaptcha },
  {
    name: 'Migration20261212000200FormAutoresponse',
    class: Migration20261212000200FormAutoresponse,
  },
  { name: 'Migration20261212000300FormRetention', class: Migration20261212000300FormRetention },
  {
    name: 'Migration20261212000400AutoresponseCaps',
    class: Migration20261212000400AutoresponseCaps,
  },
  { name: 'Migration20261213000100Memberships', class: Migration20261213000100Memberships },
  { name: 'Migration20261213000200Invitations', class: Migration20261213000200Invitations },
  { name: 'Migration20261213000300AuditEvents', class: Migration20261213000300AuditEvents },
  {
    name: 'Migration20261213000400UserIdentities',
    class: Migration20261213000400UserIdentities,
  },
  { name: 'Migration20261214000100TraceContext', class: Migration20261214000100TraceContext },
  { name: 'Migration20261215000100MailCapLedgers', class: Migration20261215000100MailCapLedgers },
  {
    name: 'Migration20261215000300InvitationDeclines',
    class: Migration20261215000300InvitationDeclines,
  },
  { name: 'Migration20261216000100FormFields', class: Migration20261216000100FormFields },
  { name: 'Migration20261216000400CustomDomains', class: Migration20261216000400CustomDomains },
  { name: 'Migration20261217000100PluginRouting', class: Migration20261217000100PluginRouting },
  {
    name: 'Migration20261218000500DomainVerifications',
    class: Migration20261218000500DomainVerifications,
  },
  { name: 'Migration20261219000100FormLimits', class: Migration20261219000100FormLimits },
  { name: 'Migration20261223000500ReceiptKeys', class: Migration20261223000500ReceiptKeys },
  {
    name: 'Migration20261224000100SubmitterAccess',
    class: Migration20261224000100SubmitterAccess,
  },
  { name: 'Migration20261224000200ManageLinks', class: Migration20261224000200ManageLinks },
  {
    name: 'Migration20261224000300SubmissionVersions',
    class: Migration20261224000300SubmissionVersions,
  },
  {
    name: 'Migration20261224000400ManageMailLinks',
    class: Migration20261224000400ManageMailLinks,
  },
];
