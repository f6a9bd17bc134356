import { SimpleGrid, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminStatsPublisher } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';

/** The most frequent URLs of one publisher, per device: pageviews, impressions and the difference. */
export function FrequentUrls({ performance }: { performance: TAdminStatsPublisher['performance'] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const lists = [
    { device: 'desktop', label: t('adminStats.desktop'), urls: performance.mostFrequentUrlsDesktop },
    { device: 'mobile', label: t('adminStats.mobile'), urls: performance.mostFrequentUrlsMobile },
  ];
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} data-testid="frequent-urls">
      {lists.map((list) => (
        <div key={list.device}>
          <Text size="xs" fw={600}>
            {list.label}
          </Text>
          {list.urls.length === 0 ? (
            <Text size="xs" c="dimmed">
              {t('adminStats.noUrls')}
            </Text>
          ) : (
            <Table fz="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('adminStats.url')}</Table.Th>
                  <Table.Th ta="right">{t('adminStats.pageviews')}</Table.Th>
                  <Table.Th ta="right">{t('adminStats.impressions')}</Table.Th>
                  <Table.Th ta="right">{t('adminStats.difference')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.urls.map((url) => (
                  <Table.Tr key={url.href}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{url.href}</Table.Td>
                    <Table.Td ta="right">{format.number(url.pageviews_count)}</Table.Td>
                    <Table.Td ta="right">{format.number(url.impressions_count)}</Table.Td>
                    <Table.Td ta="right">{format.number(url.difference)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </div>
      ))}
    </SimpleGrid>
  );
}
