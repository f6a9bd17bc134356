import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { createSigninLinkCall } from '@helium/contracts';
import { apiPost } from '../../api/client.ts';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';

/**
 * The address of a user's "Sign In ->" (`/admin/users/:userId/signin`, opened in a new tab): asks for a one-time link
 * now, then opens it, which turns this browser's session into the user's (docs/admin.md).
 */
export function SigninAsPage() {
  const { t } = useTranslation();
  const { userId } = useParams();
  const [failed, setFailed] = useState(false);
  // Once per page load, even when React runs the effect twice: each call mints a link.
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    const id = Number(userId);
    if (!Number.isInteger(id) || id <= 0) {
      setFailed(true);
      return;
    }
    apiPost(createSigninLinkCall, { userId: id }).then(
      ({ url }) => window.location.replace(url),
      () => setFailed(true),
    );
  }, [userId]);
  if (failed) {
    return (
      <Stack>
        <Alert color="red" role="alert">
          {t('adminUsers.signInFailed')}
        </Alert>
        <Anchor href="/admin/users">{t('nav.users')}</Anchor>
      </Stack>
    );
  }
  return <DelayedLoader aria-label={t('adminUsers.signingIn')} />;
}
