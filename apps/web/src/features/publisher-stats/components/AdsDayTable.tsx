import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The frame of a day's ads table, web or newsletter: the same five columns (ad, impressions, clicks, CTR, the
 * publisher's revenue), scrolling sideways under `minWidth`; each table writes its own rows.
 */
export function AdsDayTable(props: { label: string; testId: string; minWidth: number; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={props.minWidth}>
      <Table aria-label={props.label} layout="fixed" fz="sm" verticalSpacing={6} data-testid={props.testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={120}>{t('publisherStats.ad')}</Table.Th>
            <Table.Th ta="right">{t('publisherStats.impressions')}</Table.Th>
            <Table.Th ta="right">{t('publisherStats.clicks')}</Table.Th>
            <Table.Th ta="right">{t('publisherStats.ctr')}</Table.Th>
            <Table.Th ta="right">{t('publisherStats.revenue')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{props.children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
