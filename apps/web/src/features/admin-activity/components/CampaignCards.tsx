import { SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminActivityCampaign } from '@helium/contracts';
import { CampaignCard } from './CampaignCard.tsx';

export function CampaignCards({ campaigns }: { campaigns: TAdminActivityCampaign[] }) {
  const { t } = useTranslation();
  if (campaigns.length === 0) return <Text c="dimmed">{t('adminActivity.noCampaigns')}</Text>;
  return (
    <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
      {campaigns.map((campaign) => (
        <CampaignCard key={campaign.id} campaign={campaign} />
      ))}
    </SimpleGrid>
  );
}
