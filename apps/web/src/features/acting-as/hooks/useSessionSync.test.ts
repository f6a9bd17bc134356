import { describe, expect, it } from 'vitest';
import { identityOf } from './useSessionSync.ts';

describe('identityOf', () => {
  it('tells apart the user, the same user with an admin acting, another admin acting, and nobody', () => {
    const own = identityOf({ id: 3, actingAs: null });
    const acted = identityOf({
      id: 3,
      actingAs: { adminName: 'A', adminEmail: 'a@x.test', adminLocale: 'en', until: '' },
    });
    const otherAdmin = identityOf({
      id: 3,
      actingAs: { adminName: 'B', adminEmail: 'b@x.test', adminLocale: 'en', until: '' },
    });
    const nobody = identityOf(null);
    expect(new Set([own, acted, otherAdmin, nobody]).size).toBe(4);
    // When the acting session ends does not make it another one.
    expect(
      identityOf({ id: 3, actingAs: { adminName: 'A', adminEmail: 'a@x.test', adminLocale: 'en', until: 'later' } }),
    ).toBe(acted);
  });
});
