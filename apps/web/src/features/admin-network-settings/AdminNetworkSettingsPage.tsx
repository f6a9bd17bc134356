import { useState } from 'react';
import { Alert, Stack } from '@mantine/core';
import type { TUpdateNetworkSettingsRequest } from '@helium/contracts';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../app/PageHeader.tsx';
import { QueryContent } from '../../app/QueryContent.tsx';
import { MailPreviewCard } from '../admin-mail-preview/components/MailPreviewCard.tsx';
import { NetworkSettingsForm } from './components/NetworkSettingsForm.tsx';
import { SettingsHistoryTable } from './components/SettingsHistoryTable.tsx';
import { useNetworkSettings } from './hooks/useNetworkSettings.ts';

/**
 * Admin: the network settings (issue 24, part 4): edit them, and see the history of every change; the preview of
 * the reports by e-mail (issue 35).
 */
export function AdminNetworkSettingsPage() {
  const { t } = useTranslation();
  const { query, save } = useNetworkSettings();
  const [saved, setSaved] = useState(false);
  const saveAndSay = async (request: TUpdateNetworkSettingsRequest) => {
    setSaved(false);
    await save(request);
    setSaved(true);
  };
  return (
    <>
      <PageHeader title={t('nav.networkSettings')} />
      <Stack gap="lg">
        <QueryContent data={query.data} isError={query.isError}>
          {(data) => (
            <Stack gap="lg">
              {/* A new row resets the form to the settings now in force. */}
              {saved ? (
                <Alert color="green" role="status">
                  {t('networkSettings.saved')}
                </Alert>
              ) : null}
              <NetworkSettingsForm key={data.settings.id} settings={data.settings} onSave={saveAndSay} />
              <SettingsHistoryTable history={data.history} />
            </Stack>
          )}
        </QueryContent>
        <MailPreviewCard />
      </Stack>
    </>
  );
}
