import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { TCampaignEx } from '@helium/contracts';
import { ACTIVITY_CAMPAIGN_PARAM, pricingName } from '@helium/domain';

/** A campaign as the advertiser reads it: "Campaign #12 (CPM)". */
export function useCampaignName() {
  const { t } = useTranslation();
  return (campaign: { id: number; is_cpc: boolean }) =>
    t('activity.campaignOption', { id: campaign.id, pricing: pricingName({ isCpc: campaign.is_cpc }) });
}

/**
 * Chooses the campaign shown, for an advertiser an admin gave several (newest first); none for one campaign. The
 * choice is the address's `?campaign=<id>`, so that back, a reload and a shared link keep it.
 */
export function CampaignPicker({ campaign }: { campaign: TCampaignEx }) {
  const { t } = useTranslation();
  const nameOf = useCampaignName();
  const [, setParams] = useSearchParams();
  if (campaign.campaigns.length < 2) return null;
  return (
    <Select
      label={t('activity.campaignPicker')}
      data={campaign.campaigns.map((choice) => ({ value: String(choice.id), label: nameOf(choice) }))}
      value={String(campaign.id)}
      onChange={(value) => value && setParams({ [ACTIVITY_CAMPAIGN_PARAM]: value })}
      allowDeselect={false}
      w={{ base: '100%', sm: 260 }}
    />
  );
}
