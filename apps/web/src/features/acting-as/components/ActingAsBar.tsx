import { useId, useState } from 'react';
import { Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { stopActingAsCall, type TUser } from '@helium/contracts';
import { apiPost, isApiError } from '../../../api/client.ts';
import { announceSessionChange, setLeavingSession } from '../hooks/useSessionSync.ts';

/**
 * On every screen while an admin acts as this user ("Sign In ->"): who the admin is acting as, and "Back to my
 * account", which puts the admin's own session back at once, without a code, and opens Users. It speaks the
 * admin's language (its catalogue loaded with the user's: signedIn.tsx), the rest of the screen the user's.
 */
export function ActingAsBar({ user }: { user: TUser }) {
  const { i18n } = useTranslation();
  const textId = useId();
  const [leaving, setLeaving] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!user.actingAs) return null;
  const language = user.actingAs.adminLocale;
  const t = i18n.getFixedT(language);

  async function goBack() {
    setLeaving(true);
    setFailed(false);
    setLeavingSession(true);
    try {
      const { status } = await apiPost(stopActingAsCall);
      announceSessionChange();
      window.location.assign(status === 'restored' ? '/admin/users' : '/signin');
    } catch (error) {
      // Already back (another tab went first) or signed out: the guards know where this browser now belongs.
      if (isApiError(error, 409) || isApiError(error, 401)) {
        window.location.assign('/');
        return;
      }
      setLeavingSession(false);
      setLeaving(false);
      setFailed(true);
    }
  }

  return (
    <Paper
      component="section"
      aria-labelledby={textId}
      bg="yellow.3"
      c="dark.9"
      px="md"
      py="xs"
      mb="md"
      radius="sm"
      data-testid="acting-as-bar"
      lang={language}
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text id={textId} role="status" fw={600} className="user-text" style={{ minWidth: 0 }}>
          {t('actingAs.bar', { name: user.name, email: user.email })}
        </Text>
        <Button color="dark" size="sm" onClick={() => void goBack()} loading={leaving}>
          {t('actingAs.back')}
        </Button>
      </Group>
      {failed && (
        <Text role="alert" size="sm" mt={4}>
          {t('actingAs.backFailed')}
        </Text>
      )}
    </Paper>
  );
}
