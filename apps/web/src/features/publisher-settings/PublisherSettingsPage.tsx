import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryContent } from '../../app/QueryContent.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { ApiTokensSection } from '../api-tokens/components/ApiTokensSection.tsx';
import { MailPreferencesCard } from '../mail-preferences/components/MailPreferencesCard.tsx';
import { PayoutMethodCard } from './components/PayoutMethodCard.tsx';
import { usePublisherSettings } from './hooks/usePublisherSettings.ts';
import { SETTINGS_METHODS } from './utils/payoutForm.ts';

/**
 * Publisher Settings (specification 02, section 2.8): the details of each authorised payout method; and the user's API
 * tokens (issue 35).
 */
export function PublisherSettingsPage() {
  const { t } = useTranslation();
  const { query, settings, save, reload } = usePublisherSettings();
  const methods = settings
    ? SETTINGS_METHODS.filter((method) => settings.authorizedPayoutMethods.includes(method))
    : [];
  return (
    <>
      <PageHeader title={t('nav.settings')} />
      <Stack gap="md" maw={720}>
        <QueryContent data={settings} isError={query.isError}>
          {(settings) => (
            <Stack gap="md">
              <Text size="sm" c="dimmed">
                {t('settings.intro')}
              </Text>
              {methods.length === 0 ? (
                <Paper withBorder p="lg" data-testid="payout-methods-empty">
                  <Title order={2} size="h4" mb="xs">
                    {t('settings.noMethodTitle')}
                  </Title>
                  <Text>{t('settings.noMethod')}</Text>
                </Paper>
              ) : (
                methods.map((method) => {
                  const values: Record<string, string> = settings.form[method];
                  return (
                    <PayoutMethodCard
                      // Details read again from the server start a fresh card.
                      key={`${method}:${JSON.stringify(values)}`}
                      method={method}
                      values={values}
                      onSave={save}
                      onReload={reload}
                    />
                  );
                })
              )}
              {/* Inside, so that the methods loading above it do not move it while it is used. */}
              <MailPreferencesCard account="publisher" />
            </Stack>
          )}
        </QueryContent>
        <ApiTokensSection />
      </Stack>
    </>
  );
}
