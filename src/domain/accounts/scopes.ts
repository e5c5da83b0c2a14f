/** The three key scopes of the specification and the dashboard's preset roles. */
export const SCOPES = [
  'can_create_forms',
  'can_read_submissions',
  'can_read_spam_submissions',
] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = {
  admin: ['can_create_forms', 'can_read_submissions', 'can_read_spam_submissions'],
  readonly: ['can_read_submissions'],
} as const satisfies Record<string, readonly Scope[]>;
export type Role = keyof typeof ROLES;

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
