import { Button, Group, Modal, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DelayedLoader } from '../../../app/DelayedLoader.tsx';
import { useCampaignByUrl } from '../hooks/useCampaignByUrl.ts';
import { useMetricTexts } from '../hooks/useMetricTexts.ts';
import { byUrlCsv } from '../utils/activityCsv.ts';
import { downloadCsv } from '../utils/csv.ts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { METRIC_KEYS } from '../utils/metricKeys.ts';
import { MetricHeaders } from './MetricHeaders.tsx';

/** The statistics by URL, read when the modal opens, with their CSV export. */
export function UrlModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const texts = useMetricTexts();
  const query = useCampaignByUrl(opened);
  const rows = query.data?.stats.byUrl ?? [];
  const format = useFormat();
  const exportCsv = () => downloadCsv('activity-by-url.csv', byUrlCsv(rows, format));
  return (
    <Modal opened={opened} onClose={onClose} title={t('activity.byUrlTitle')} size="90%">
      {query.isPending ? (
        <DelayedLoader aria-label={t('common.loading')} />
      ) : rows.length === 0 ? (
        <Text>{t('activity.noStatsYet')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table aria-label={t('activity.byUrlTitle')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('activity.url')}</Table.Th>
                <MetricHeaders />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => {
                const text = texts(row);
                return (
                  <Table.Tr key={row.url}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{row.url}</Table.Td>
                    {METRIC_KEYS.map((key) => (
                      <Table.Td key={key} ta="right">
                        {text[key]}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={exportCsv} disabled={rows.length === 0}>
          {t('activity.exportCsv')}
        </Button>
        <Button onClick={onClose}>{t('activity.ok')}</Button>
      </Group>
    </Modal>
  );
}
