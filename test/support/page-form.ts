import type { FormSettings } from './api-client';

// A form with a hosted page and one field of every type (docs/form-pages.md), for the page's
// HTTP and browser tests.

/** What a hostile visitor or form owner types, to be shown only escaped. */
export const HOSTILE = '"><script>alert(1)</script>';
export const HOSTILE_ESCAPED = '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;';

export const EVERY_FIELD_TYPE = [
  { name: 'name', label: 'Your name', type: 'text', required: true, max_length: 100 },
  {
    name: 'email',
    label: 'E-mail address',
    type: 'email',
    required: true,
    help: 'We only use it to answer you.',
  },
  { name: 'message', label: 'Message', type: 'textarea', required: true, max_length: 2000 },
  { name: 'guests', label: 'Number of guests', type: 'number', required: false, min: 1, max: 10 },
  { name: 'phone', label: 'Phone', type: 'tel', required: false },
  { name: 'website', label: 'Website', type: 'url', required: false, placeholder: 'https://' },
  { name: 'day', label: 'Preferred date', type: 'date', required: false },
  {
    name: 'plan',
    label: 'Plan',
    type: 'select',
    required: true,
    options: ['Free', 'Team', 'Enterprise'],
  },
  {
    name: 'languages',
    label: 'Languages you speak',
    type: 'select',
    required: false,
    multiple: true,
    options: ['English', 'French', 'German'],
  },
  {
    name: 'contact_by',
    label: 'How should we contact you?',
    type: 'radio',
    required: true,
    options: ['E-mail', 'Phone'],
  },
  {
    name: 'topics',
    label: 'Topics',
    type: 'checkbox',
    required: false,
    options: ['Product news', 'Events'],
    help: 'Choose any.',
  },
  { name: 'terms', label: 'I agree to the terms', type: 'checkbox', required: true },
  {
    name: 'attachment',
    label: 'Attachment',
    type: 'file',
    required: false,
    multiple: true,
    accept: ['.txt', 'image/*'],
  },
  { name: 'utm_source', label: 'Campaign', type: 'hidden', required: false },
] satisfies NonNullable<FormSettings['fields']>;

export const PAGE = {
  title: 'Book a demo',
  description:
    'Tell us about your team and we will get back to you within a day.\n\nFields you leave empty are fine.',
  submit_label: 'Request a demo',
  success_message: 'Thanks! We will be in touch within one working day.',
  accent_color: '#0f766e',
};

/** The settings of a form with a page and every field type (uploads on, so files are taken). */
export const pageFormSettings = (extra: FormSettings = {}): FormSettings => ({
  name: 'Demo requests',
  accept_files: true,
  fields: EVERY_FIELD_TYPE,
  page: PAGE,
  ...extra,
});

/** A valid answer to every field but the file, as an urlencoded post sends it. */
export const VALID_ANSWERS: [string, string][] = [
  ['name', 'Ada Lovelace'],
  ['email', 'ada@example.com'],
  ['message', 'Hello from the page'],
  ['guests', '3'],
  ['phone', '+44 20 7946 0000'],
  ['website', 'https://example.com'],
  ['day', '2027-01-15'],
  ['plan', 'Team'],
  ['languages', 'English'],
  ['languages', 'French'],
  ['contact_by', 'Phone'],
  ['topics', 'Events'],
  ['terms', 'yes'],
  ['utm_source', 'newsletter'],
];

/** How ingest stores VALID_ANSWERS (numbers as numbers, groups as lists, the box as true). */
export const STORED_ANSWERS = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello from the page',
  guests: 3,
  phone: '+44 20 7946 0000',
  website: 'https://example.com',
  day: '2027-01-15',
  plan: 'Team',
  languages: ['English', 'French'],
  contact_by: 'Phone',
  topics: ['Events'],
  terms: true,
  utm_source: 'newsletter',
};
