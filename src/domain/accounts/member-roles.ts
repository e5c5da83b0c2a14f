import { SCOPES, type Scope } from './scopes';

/**
 * A member's role in an account (docs/teams.md). Roles map onto the scopes keys use, so one
 * check (`can`, principal.ts) serves keys and sessions alike; `owner` adds the account
 * itself: its members, invitations and deletion.
 */
export const MEMBER_ROLES = ['owner', 'admin', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const MEMBER_ROLE_SCOPES: Record<MemberRole, readonly Scope[]> = {
  owner: SCOPES,
  admin: SCOPES,
  viewer: ['can_read_submissions'],
};

/** What each role may do, in words (the team page and the docs). */
export const MEMBER_ROLE_LABELS: Record<MemberRole, string> = {
  owner: 'everything, including members and deleting the account',
  admin: 'forms, plugins, submissions (spam included) and API keys',
  viewer: 'reads forms and submissions (not spam); changes nothing',
};

export function isMemberRole(value: string): value is MemberRole {
  return (MEMBER_ROLES as readonly string[]).includes(value);
}

/**
 * What a signed-in page or operation needs: a scope (as a key would), `owner`, or only
 * `member` (anything a member may see, like their own settings).
 */
export type Need = Scope | 'owner' | 'member';

export function roleAllows(role: MemberRole, need: Need): boolean {
  if (need === 'member') return true;
  if (need === 'owner') return role === 'owner';
  return MEMBER_ROLE_SCOPES[role].includes(need);
}
