import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignAd, TCampaignEx } from '@helium/contracts';
import { AdRow } from './AdRow.tsx';
import { MetricHeaders } from './MetricHeaders.tsx';

export interface AdTableProps {
  campaign: TCampaignEx;
  byPublisher: boolean;
  /** True while AutoPilot was just switched: shares are hidden until the server refreshes them. */
  sharesStale: boolean;
  onActivate: (ad: TCampaignAd, publisherId: number | null, active: boolean) => void;
  onEject: (ad: TCampaignAd) => void;
  onBudget: (ad: TCampaignAd, budget: number) => void;
}

/** The ads still in the campaign (the ejected ones are in their drawer), one row each. */
export function AdTable(props: AdTableProps) {
  const { t } = useTranslation();
  const active = props.campaign.ads.filter((ad) => !ad.isEjected);
  if (active.length === 0) return <Text c="dimmed">{t('activity.noAds')}</Text>;
  return (
    // Compact (small type, narrow gutters) so that its 12 columns fit a 1280 px window in BTC and in French; narrower
    // boxes scroll it sideways inside its own box.
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="xs" horizontalSpacing={5} fz="xs" striped={false} aria-label={t('activity.adsTable')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('activity.ad')}</Table.Th>
            <Table.Th>{t('activity.activation')}</Table.Th>
            <Table.Th>{t('activity.distribution')}</Table.Th>
            <MetricHeaders />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {active.map((ad) => (
            <AdRow key={ad.id} {...props} ad={ad} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
