import type { MemberRole } from './member-roles';
import type { Scope } from './scopes';

/** Who is calling the API: an account plus what the credential may do. */
export type Principal = {
  accountId: string;
  scopes: ReadonlySet<Scope>;
} & (
  | { kind: 'api_key'; apiKeyId: string }
  | { kind: 'session'; sessionId: string; userId: string; csrfToken: string; role: MemberRole }
);

export function can(principal: Principal, scope: Scope): boolean {
  return principal.scopes.has(scope);
}
