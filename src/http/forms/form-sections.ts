/**
 * The sections of a form's dashboard pages, in the order of their shared navigation
 * (templates/form-sections.eta): each is its own page under `/app/forms/:id`, so a person reaches
 * one without scrolling past the others and every section has a URL to share or bookmark.
 */
export const FORM_SECTIONS = [
  { key: 'overview', label: 'Overview', path: '' },
  { key: 'fields', label: 'Fields and page', path: '/fields' },
  { key: 'share', label: 'Share', path: '/share' },
  { key: 'settings', label: 'Settings', path: '/settings' },
  { key: 'spam', label: 'Spam and CAPTCHA', path: '/spam' },
  { key: 'autoresponse', label: 'Autoresponse', path: '/autoresponse' },
  { key: 'plugins', label: 'Plugins', path: '/plugins' },
  // Only roles that may delete see it (the partial hides it from viewers).
  { key: 'danger', label: 'Danger zone', path: '/danger' },
] as const;

export type FormSectionKey = (typeof FORM_SECTIONS)[number]['key'];

/** One entry of the section navigation as the partial shows it. */
export type FormSectionLink = {
  key: FormSectionKey;
  href: string;
  label: string;
  current: boolean;
};

export const formSectionLinks = (formId: string, current: FormSectionKey): FormSectionLink[] =>
  FORM_SECTIONS.map((section) => ({
    key: section.key,
    href: `/app/forms/${formId}${section.path}`,
    label: section.label,
    current: section.key === current,
  }));

/** The `<title>` of a section's page: the section, then the form. */
export const sectionTitle = (current: FormSectionKey, formName: string) =>
  current === 'overview'
    ? formName
    : `${FORM_SECTIONS.find((s) => s.key === current)!.label} · ${formName}`;
