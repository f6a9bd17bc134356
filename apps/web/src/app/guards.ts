import { HOME_PATH_BY_TYPE, type UserType } from '@helium/domain/roles';

export const SIGN_IN_PATH = '/signin';
export const HOME_PATH = '/';

/**
 * The sign-in page, which comes back to the page asked for once signed in (`next`: the server checks it, signin.ts),
 * for a mail's link followed while signed out or a session that expired on a page.
 */
export function signInReturningTo(asked: string): string {
  return asked === HOME_PATH ? SIGN_IN_PATH : `${SIGN_IN_PATH}?${new URLSearchParams({ next: asked }).toString()}`;
}

/** What a route needs: any signed-in user, the home redirect, or one user type. */
export type Requirement = 'signedIn' | 'home' | UserType;

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string };

/**
 * The route rules of spec 01, section 2. `user` is null when the user fetch failed (401 or
 * network error): that always leads to sign-in.
 */
export function decideAccess(
  user: { type: UserType; homePath?: string } | null,
  requirement: Requirement,
): GuardDecision {
  if (!user) return { kind: 'redirect', to: SIGN_IN_PATH };
  if (requirement === 'signedIn') return { kind: 'allow' };
  // The server knows where home is (a publisher still to install its script starts on Installation).
  if (requirement === 'home') return { kind: 'redirect', to: user.homePath ?? HOME_PATH_BY_TYPE[user.type] };
  return user.type === requirement ? { kind: 'allow' } : { kind: 'redirect', to: HOME_PATH };
}
