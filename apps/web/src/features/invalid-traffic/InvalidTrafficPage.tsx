import { Group, LoadingOverlay, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../app/PageHeader.tsx';
import { QueryContent } from '../../app/QueryContent.tsx';
import { useFormat } from '../format/hooks/useFormat.ts';
import { InvalidTrafficTable } from './components/InvalidTrafficTable.tsx';
import { INVALID_TRAFFIC_WINDOWS, useInvalidTraffic } from './hooks/useInvalidTraffic.ts';

/**
 * Admin: the invalid traffic (issue 24): what the traffic rules set aside (bots, rate abuse, one address's share,
 * data centres...), per publisher, UTC day and reason. Kept aside, never billed, never deleted.
 */
export function InvalidTrafficPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { days, setDays, query } = useInvalidTraffic();
  return (
    <>
      <PageHeader title={t('nav.invalidTraffic')} />
      <Paper withBorder p="md" pos="relative">
        <LoadingOverlay visible={query.isFetching && query.isPlaceholderData} />
        <Stack gap="md">
          <Group justify="space-between" wrap="wrap">
            <SegmentedControl
              aria-label={t('invalidTraffic.window')}
              value={String(days)}
              onChange={(value) => setDays(Number(value))}
              data={INVALID_TRAFFIC_WINDOWS.map((window) => ({
                value: String(window),
                label: t('invalidTraffic.days', { count: window }),
              }))}
            />
            {query.data ? (
              <Text size="sm" c="dimmed" data-testid="invalid-traffic-total">
                {t('invalidTraffic.total', { count: query.data.total, total: format.number(query.data.total) })}
              </Text>
            ) : null}
          </Group>
          <QueryContent data={query.data} isError={query.isError}>
            {(data) => <InvalidTrafficTable rows={data.rows} />}
          </QueryContent>
        </Stack>
      </Paper>
    </>
  );
}
