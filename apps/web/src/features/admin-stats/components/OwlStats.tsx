import { Group, Image, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminStats } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';

/** Newsletter publishers (averaged figures), then the newsletter figures per ad, each with its picture. */
export function OwlStats({ stats }: { stats: TAdminStats }) {
  const { t } = useTranslation();
  const format = useFormat();
  const owl = stats.publishers.filter((publisher) => publisher.is_owl);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="admin-stats-owl">
      <Title order={2} size="h4" id="admin-stats-owl" mb="sm">
        {t('adminStats.newsletterPublishers')}
      </Title>
      <Table.ScrollContainer minWidth={560}>
        <Table data-testid="admin-stats-owl-publishers" fz="sm" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('adminStats.publisher')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.impressions')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.clicks')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.ctr')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.revenues')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {owl.map((publisher) => (
              <Table.Tr key={publisher.id}>
                <Table.Td>{publisher.brand}</Table.Td>
                <Table.Td ta="right">{format.number(publisher.averageOwlSummariesUs.impressions)}</Table.Td>
                <Table.Td ta="right">{format.number(publisher.averageOwlSummariesUs.clicks)}</Table.Td>
                <Table.Td ta="right">{publisher.averageOwlSummariesUs.ctr}</Table.Td>
                <Table.Td ta="right">{format.euros(publisher.averageOwlSummariesUs.revenues)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr fw={700}>
              <Table.Td>{t('adminStats.total')}</Table.Td>
              <Table.Td ta="right">{stats.allOwlPublishersImpressionsStr}</Table.Td>
              <Table.Td ta="right">{stats.allOwlPublishersClicksStr}</Table.Td>
              <Table.Td ta="right">{stats.allOwlPublishersCtrStr}</Table.Td>
              <Table.Td />
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
      <Title order={3} size="h5" mt="md" mb="xs">
        {t('adminStats.newsletterAds')}
      </Title>
      {stats.owlStats.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('adminStats.noNewsletterAds')}
        </Text>
      ) : (
        <Stack gap="md" data-testid="admin-stats-owl-ads">
          {stats.owlStats.map((group) => (
            <Group key={group.key} align="flex-start" wrap="nowrap" data-testid={`owl-ad-${group.key}`}>
              {(group.ad.image ?? group.ad.poster) ? (
                <Image src={group.ad.image ?? group.ad.poster} alt={t('adminStats.adPicture')} w={120} fit="contain" />
              ) : null}
              <Table.ScrollContainer minWidth={640} style={{ flex: 1 }}>
                <Table fz="xs" striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('adminStats.publisher')}</Table.Th>
                      <Table.Th ta="right">{t('adminStats.bannerIndex')}</Table.Th>
                      <Table.Th ta="right">{t('adminStats.impressions')}</Table.Th>
                      <Table.Th ta="right">{t('adminStats.clicks')}</Table.Th>
                      <Table.Th ta="right">{t('adminStats.ctr')}</Table.Th>
                      <Table.Th ta="right">{t('adminStats.share')}</Table.Th>
                      <Table.Th ta="right">{t('adminStats.publisherRevenue')}</Table.Th>
                      <Table.Th ta="right">{t('adminStats.providerRevenue')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {group.lines.map((line) => (
                      <Table.Tr key={line.publisherBrand}>
                        <Table.Td>{line.publisherBrand}</Table.Td>
                        <Table.Td ta="right">{line.bannerIndex ?? ''}</Table.Td>
                        <Table.Td ta="right">{format.number(line.impressions)}</Table.Td>
                        <Table.Td ta="right">{format.number(line.clicks)}</Table.Td>
                        <Table.Td ta="right">{line.ctrStr}</Table.Td>
                        <Table.Td ta="right">{format.percent(line.sharePct)}</Table.Td>
                        <Table.Td ta="right">{format.euros(line.publisherRevenue)}</Table.Td>
                        <Table.Td ta="right">{format.euros(line.providerRevenue)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
