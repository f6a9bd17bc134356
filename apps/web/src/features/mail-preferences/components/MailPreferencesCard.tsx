import { Alert, Checkbox, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TMailPreferences } from '@helium/contracts';
import { QueryContent } from '../../../app/QueryContent.tsx';
import { useMailPreferences } from '../hooks/useMailPreferences.ts';

/**
 * The reports by e-mail on Settings (docs/emails.md): the weekly report, and for advertisers the low-credit alerts.
 * A box ticked or unticked is saved at once; the box shows what is stored.
 */
export function MailPreferencesCard({ account }: { account: 'advertiser' | 'publisher' }) {
  const { t } = useTranslation();
  const { query, preferences, save } = useMailPreferences();
  const change = (key: keyof TMailPreferences, value: boolean) => save.mutate({ [key]: value });
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby="mail-preferences-title"
      data-testid="mail-preferences"
    >
      <Title order={2} size="h4" id="mail-preferences-title" mb="xs">
        {t('mailPreferences.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('mailPreferences.intro')}
      </Text>
      <QueryContent data={preferences} isError={query.isError}>
        {(stored) => (
          <Stack gap="sm">
            <Checkbox
              label={t('mailPreferences.weeklyReport')}
              description={t(
                account === 'advertiser'
                  ? 'mailPreferences.weeklyReportAdvertiserHint'
                  : 'mailPreferences.weeklyReportPublisherHint',
              )}
              checked={stored.weeklyReport}
              onChange={(event) => change('weeklyReport', event.currentTarget.checked)}
              data-testid="mail-weekly-report"
            />
            {account === 'advertiser' ? (
              <Checkbox
                label={t('mailPreferences.lowCredit')}
                description={t('mailPreferences.lowCreditHint')}
                checked={stored.lowCreditAlerts}
                onChange={(event) => change('lowCreditAlerts', event.currentTarget.checked)}
                data-testid="mail-low-credit"
              />
            ) : null}
            {save.isSuccess ? (
              <Text size="sm" c="teal.8" role="status" data-testid="mail-preferences-saved">
                {t('mailPreferences.saved')}
              </Text>
            ) : null}
            {save.isError ? (
              <Alert color="red" role="alert">
                {t('mailPreferences.saveFailed')}
              </Alert>
            ) : null}
          </Stack>
        )}
      </QueryContent>
    </Paper>
  );
}
