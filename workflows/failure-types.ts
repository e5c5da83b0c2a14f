// Failure types activities throw and the workflow's retry policies name. Pure: workflow code,
// the activities and the starters import them.

export const PLUGIN_UNAVAILABLE = 'PluginUnavailable'; // deleted or disabled: never retried
export const DELIVERY_FAILED = 'DeliveryFailed'; // details: the attempt's DeliveryOutcome
export const SMTP_REJECTED_FAILURE = 'SmtpPermanentRejection'; // the SMTP server refused for good
export const DELIVERY_SKIPPED = 'DeliverySkipped'; // nothing sent (no confirmed recipient, no mail budget)
