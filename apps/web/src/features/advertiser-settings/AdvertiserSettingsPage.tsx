import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryContent } from '../../app/QueryContent.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { ApiTokensSection } from '../api-tokens/components/ApiTokensSection.tsx';
import { MailPreferencesCard } from '../mail-preferences/components/MailPreferencesCard.tsx';
import { AdvertiserCard } from './components/AdvertiserCard.tsx';
import { BillingInformationCard } from './components/BillingInformationCard.tsx';
import { SalesTable } from './components/SalesTable.tsx';
import { useAdvertiserSettings } from './hooks/useAdvertiserSettings.ts';

/**
 * Advertiser Settings (specification 02, section 2.4): who the advertiser is, billing information, the reports by
 * e-mail and the user's API tokens (issue 35), purchases.
 */
export function AdvertiserSettingsPage() {
  const { t } = useTranslation();
  const { query, settings, save } = useAdvertiserSettings();
  return (
    <>
      <PageHeader title={t('nav.settings')} />
      <Stack gap="md" maw={960}>
        <QueryContent data={settings} isError={query.isError}>
          {(settings) => (
            <Stack gap="md">
              <AdvertiserCard advertiser={settings.advertiser} />
              <BillingInformationCard
                // A new address from the server starts a fresh card.
                key={settings.form.billingInformation.address}
                address={settings.form.billingInformation.address}
                onSave={(address) => save.mutateAsync(address)}
                onReload={() => query.refetch()}
              />
              <MailPreferencesCard account="advertiser" />
              <SalesTable sales={settings.sales} />
            </Stack>
          )}
        </QueryContent>
        <ApiTokensSection />
      </Stack>
    </>
  );
}
