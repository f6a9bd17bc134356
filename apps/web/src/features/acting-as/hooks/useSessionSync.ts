import { useEffect } from 'react';
import { sessionUserCall, type TUser } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

/** The tabs of one browser tell each other that who is signed in may have changed. */
const CHANNEL = 'helium-session';

/** Who a tab is showing: the user, and the admin acting as them if one is; '' when nobody is signed in. */
export function identityOf(user: Pick<TUser, 'id' | 'actingAs'> | null): string {
  if (!user) return '';
  return user.actingAs ? `${user.id} as ${user.actingAs.adminEmail}` : String(user.id);
}

function openChannel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
}

/** This tab changes the session and goes where it should itself: it does not reload meanwhile. */
let leaving = false;

/**
 * While this tab changes who is signed in ("Back to my account") and then goes where it should, it does not look
 * itself (a reload would race its navigation); false again if the change failed.
 */
export function setLeavingSession(value: boolean): void {
  leaving = value;
}

/** Tells the other tabs to look again who is signed in (after "Back to my account"). */
export function announceSessionChange(): void {
  const channel = openChannel();
  channel?.postMessage('changed');
  channel?.close();
}

/**
 * The session cookie is the browser's, so one tab's "Sign In ->" or "Back to my account" changes who every tab
 * is (docs/security.md, "Acting as a user"). A tab that shows someone else than the server's session reloads, so
 * that each shows who it really acts as: when another tab says so (each shell announces itself when it loads)
 * and when the tab is shown again.
 */
export function useSessionSync(user: TUser): void {
  const identity = identityOf(user);
  useEffect(() => {
    let active = true;
    const check = async () => {
      if (leaving) return;
      try {
        const { user: current } = await apiPost(sessionUserCall);
        if (active && !leaving && identityOf(current) !== identity) window.location.reload();
      } catch {
        // Unreachable for now: the next look will tell.
      }
    };
    const channel = openChannel();
    channel?.addEventListener('message', () => void check());
    channel?.postMessage('shown');
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      active = false;
      channel?.close();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [identity]);
}
