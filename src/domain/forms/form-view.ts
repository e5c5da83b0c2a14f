import type { PublicUrls } from '../../app-context';
import type { Form } from '../../db/entities';
import { link, type Link } from '../../http/links';
import { can, type Principal } from '../accounts/principal';
import { embedHtml } from './embed-html';
import { formExamples } from './examples';
import type { FormCounts } from './form-counts';
import { formUrls } from './form-urls';

/** The Form resource of the specification, with the links this caller may follow. */
export function formView(form: Form, counts: FormCounts, urls: PublicUrls, principal: Principal) {
  const u = formUrls(urls, form.endpointToken);
  const html = embedHtml({
    name: form.name,
    token: form.endpointToken,
    submissionUrl: u.submissionUrl,
  });
  return {
    id: form.id,
    name: form.name,
    endpoint_token: form.endpointToken,
    success_redirect_url: form.successRedirectUrl,
    is_active: form.isActive,
    allowed_domains: form.allowedDomains,
    notification_email_addresses: form.notificationEmailAddresses,
    submission_url: u.submissionUrl,
    json_url: u.jsonUrl,
    thanks_url: u.thanksUrl,
    embed_html: html,
    autocomplete_script_url: u.autocompleteScriptUrl,
    submission_count: counts.submissions,
    submission_spam_count: counts.spam,
    last_submission_at: counts.lastSubmissionAt?.toISOString() ?? null,
    examples: formExamples(u, html),
    help: u.helpUrl,
    created_at: form.createdAt.toISOString(),
    updated_at: form.updatedAt.toISOString(),
    links: formLinks(form, urls, principal),
  };
}

function formLinks(form: Form, urls: PublicUrls, principal: Principal): Link[] {
  const self = `${urls.base}/api/forms/${form.id}`;
  const links = [link('self', self)];
  if (can(principal, 'can_create_forms')) links.push(link('update', self, 'PATCH'));
  if (can(principal, 'can_read_submissions'))
    links.push(link('submissions', `${urls.base}/api/submissions?form_id=${form.id}`));
  if (can(principal, 'can_read_spam_submissions'))
    links.push(link('spam_submissions', `${urls.base}/api/submissions/spam?form_id=${form.id}`));
  links.push(link('plugins', `${self}/plugins`));
  if (can(principal, 'can_create_forms'))
    links.push(link('create_plugin', `${self}/plugins`, 'POST'));
  links.push(link('stats', `${urls.base}/api/form_stats/${form.id}`));
  const u = formUrls(urls, form.endpointToken);
  links.push(link('submit', u.submissionUrl, 'POST'), link('submit_json', u.jsonUrl, 'POST'));
  return links;
}
