/**
 * English: the reference catalogue. Every other file of this folder has exactly its keys,
 * with the same placeholders (docs/languages.md). Messages are ICU MessageFormat.
 *
 * The `field.*` messages are also the API's `errors` lines (`email: must be a valid e-mail
 * address`) and its English `field_errors`: in English they continue the field's name, so
 * they start in lower case. Changing one changes the API's answers.
 */
export const en = {
  // The hosted form page.
  'page.submit': 'Send',
  'page.required_note': 'Fields marked {asterisk} are required.',
  'page.required_asterisk': 'with an asterisk',
  'page.title_error': 'Error: {title}',
  'page.choose': 'Choose…',
  'page.choose_at_least_one': '(choose at least one)',
  'page.files_accepted': 'Accepted: {types}.',
  'page.files_choose_again': 'Files are not kept when the form is shown again: choose them again.',
  'page.honeypot': 'Leave this empty',
  // A field's problem beside it: a hidden word before the message, for screen readers.
  'field.error_prefix': 'Error:',
  'field.required': 'is required',
  'field.must_be_checked': 'must be checked',
  'field.one_value': 'takes one value',
  'field.not_text': 'must be text',
  'field.not_an_option': 'must be one of the options (got "{got}")',
  'field.not_a_number': 'must be a number',
  'field.too_small': 'must be at least {min}',
  'field.too_large': 'must be at most {max}',
  'field.too_long':
    '{max, plural, one {must be at most {max} character} other {must be at most {max} characters}}',
  'field.invalid_email': 'must be a valid e-mail address',
  'field.invalid_url': 'must be an http:// or https:// URL',
  'field.invalid_date': 'must be a date as YYYY-MM-DD',
  'field.not_a_file': 'must be sent as a file',
  'field.one_file': 'takes one file',
  'field.file_type': '"{filename}" is not an accepted type ({accepted})',
  'field.must_not_be_file': 'must not be a file',
  'field.unknown_field': 'is not a field of this form',
  'field.already_submitted':
    'was already used for a submission of this form: each can be sent once',
  // The box at the top of a page shown again after a refused post.
  'summary.field_heading': 'There is a problem',
  'summary.other_heading': 'Your answers were not sent',
  'summary.field_item': '{label}: {message}',
  'summary.files_dropped': 'Files you chose were not kept: choose them again.',
  'summary.captcha_failed':
    'The anti-spam check did not pass. Complete it again, then send the form.',
  'summary.rate_limited':
    'Too many submissions came from your network just now. Wait a minute, then send the form again.',
  'summary.payload_too_large':
    'The submission is too large. Send smaller files or shorter answers.',
  'summary.unavailable':
    'The service is briefly unavailable. Nothing was sent: wait a few seconds, then send the form again.',
  'summary.other': 'Your answers could not be sent. Check them, then send the form again.',
  // The thank-you page.
  'thanks.default': 'Thank you! Your submission has been received.',
  'thanks.send_another': 'Send another response',
  'thanks.receipt': '{link}: a signed record of what was received.',
  'thanks.receipt_link': 'Download your receipt',
  // The page of a closed form, unless the form has its own closed_message.
  'closed.not_open_yet': 'This form is not open yet: it opens on {opens_at} (UTC).',
  'closed.full': 'This form has all the submissions it takes and is closed.',
  'closed.closed': 'This form is closed and no longer takes submissions.',
  // The footer of every hosted page.
  'footer.no_passwords': 'Never submit passwords through this form.',
  'footer.hosted': 'A form hosted with Formward.',
  'footer.report_abuse': 'Report abuse',
  // The manage-link pages (docs/manage-links.md) and the link on the thank-you page. A wrong
  // link's page (no form, so no language) is always English.
  'manage.link_intro':
    'Keep this private link to come back to your submission. It is shown only now: save it or bookmark it. Anyone with it can open your submission.',
  'manage.link_label': 'Your link to this submission',
  'manage.view_title': 'Your submission',
  'manage.received_at': 'Received: {received_at} (UTC)',
  'manage.version': 'Version {version}',
  'manage.edit_until': 'You can change or delete it until {edit_until} (UTC).',
  'manage.edit_closed': 'It can no longer be changed.',
  'manage.no_value': '(empty)',
  'manage.file_value': '{filename} (file, {size, plural, one {# byte} other {# bytes}})',
  'manage.edit_action': 'Change your answers',
  'manage.delete_action': 'Delete this submission',
  'manage.edit_submit': 'Save changes',
  'manage.edit_saved': 'Your changes were saved.',
  'manage.edit_files_kept': 'Files you sent stay as they are: they cannot be changed here.',
  'manage.edit_closed_title': 'This submission can no longer be changed',
  'manage.edit_closed_body':
    'The time to change this submission has passed, or the form has closed. What you sent is kept as it was.',
  'manage.delete_title': 'Delete your submission?',
  'manage.delete_body':
    'This deletes what you sent, with any files, for good. It cannot be undone.',
  'manage.delete_confirm': 'Delete for good',
  'manage.delete_cancel': 'Keep it',
  'manage.deleted_title': 'Your submission was deleted',
  'manage.deleted_body': 'What you sent, with any files, has been deleted.',
  'manage.not_found_title': 'Nothing here',
  'manage.not_found_body':
    'This link opens nothing: it is wrong, or what it opened is no longer here.',
} as const;

export type MessageKey = keyof typeof en;

/** A language's catalogue: a message for every key of English. */
export type Messages = Record<MessageKey, string>;
