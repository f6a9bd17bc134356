import { useState } from 'react';
import { Button, Group, Modal, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignEx } from '@helium/contracts';
import { QueryContent } from '../../../app/QueryContent.tsx';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { useCampaignCountries } from '../hooks/useCampaignCountries.ts';

/**
 * The "By country" action of the Activity screen: a dialog of the campaign's impressions, clicks, CTR and cost
 * per visitor country over the screen's dates (docs/targeting.md "Figures by country"), with their total.
 */
export function ByCountryAction({ campaign }: { campaign: TCampaignEx }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [opened, setOpened] = useState(false);
  const query = useCampaignCountries(campaign, opened);
  const title = campaign.statsDateRangeStr
    ? `${t('byCountry.title')} (${campaign.statsDateRangeStr})`
    : `${t('byCountry.title')} (${t('activity.allDates')})`;
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        {t('byCountry.action')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={title} size="lg">
        <QueryContent data={query.data} isError={query.isError}>
          {(data) =>
            data.countries.length === 0 ? (
              <Text>{t('activity.noStatsYet')}</Text>
            ) : (
              <Table.ScrollContainer minWidth={360}>
                <Table aria-label={t('byCountry.title')} striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('byCountry.country')}</Table.Th>
                      <Table.Th ta="right">{t('activity.metric.impressions')}</Table.Th>
                      <Table.Th ta="right">{t('activity.metric.clicks')}</Table.Th>
                      <Table.Th ta="right">{t('activity.metric.ctr')}</Table.Th>
                      <Table.Th ta="right">{t('activity.metric.costs')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.countries.map((row) => (
                      <Table.Tr key={row.country} data-country={row.country}>
                        <Table.Td>{row.name}</Table.Td>
                        <Table.Td ta="right">{format.number(row.impressions)}</Table.Td>
                        <Table.Td ta="right">{format.number(row.clicks)}</Table.Td>
                        <Table.Td ta="right">{format.percent(row.ctr, 2)}</Table.Td>
                        <Table.Td ta="right">{format.money(row.cost)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                  <Table.Tfoot>
                    <Table.Tr fw={700}>
                      <Table.Td>{t('activity.totalLine')}</Table.Td>
                      <Table.Td ta="right">{format.number(data.total.impressions)}</Table.Td>
                      <Table.Td ta="right">{format.number(data.total.clicks)}</Table.Td>
                      <Table.Td ta="right">{format.percent(data.total.ctr, 2)}</Table.Td>
                      <Table.Td ta="right">{format.money(data.total.cost)}</Table.Td>
                    </Table.Tr>
                  </Table.Tfoot>
                </Table>
              </Table.ScrollContainer>
            )
          }
        </QueryContent>
        <Group justify="flex-end" mt="md">
          <Button onClick={() => setOpened(false)}>{t('activity.ok')}</Button>
        </Group>
      </Modal>
    </>
  );
}
