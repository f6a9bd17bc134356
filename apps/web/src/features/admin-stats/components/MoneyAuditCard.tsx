import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TMoneyAuditRun } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { useMoneyAudit } from '../hooks/useMoneyAudit.ts';
import { knownCheck } from '../utils/moneyAudit.ts';
import { MoneyAuditRows } from './MoneyAuditRows.tsx';

/**
 * The money audit on Stats (issue 32): the last run, when and why it ran, each invariant kept or broken with the
 * rows that break it, and Run now.
 */
export function MoneyAuditCard() {
  const { t } = useTranslation();
  const { query, last, run } = useMoneyAudit();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="money-audit-title" data-testid="money-audit">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="money-audit-title">
          {t('moneyAudit.title')}
        </Title>
        <Button size="xs" onClick={() => run.mutate()} loading={run.isPending} data-testid="money-audit-run">
          {t('moneyAudit.runNow')}
        </Button>
      </Group>
      <Stack gap="sm">
        {run.isPending && (
          <Text size="sm" role="status" data-testid="money-audit-running">
            {t('moneyAudit.running')}
          </Text>
        )}
        {run.isError && (
          <Alert color="red" role="alert">
            {t('moneyAudit.runFailed')}
          </Alert>
        )}
        {query.isError && !last && (
          <Alert color="red" role="alert">
            {t('common.error')}
          </Alert>
        )}
        {last === null && <Text size="sm">{t('moneyAudit.never')}</Text>}
        {last && <LastRun run={last} />}
      </Stack>
    </Paper>
  );
}

function LastRun({ run }: { run: TMoneyAuditRun }) {
  const { t } = useTranslation();
  const format = useFormat();
  const broken = run.checks.filter((check) => !check.ok);
  return (
    <>
      <Group gap="sm">
        <Badge color={run.ok ? 'teal' : 'red'} data-testid="money-audit-state">
          {run.ok ? t('moneyAudit.allKept') : t('moneyAudit.brokenCount', { count: broken.length })}
        </Badge>
        <Text size="sm" c="dimmed" data-testid="money-audit-time">
          {t('moneyAudit.lastRun', {
            date: format.dateTime(run.ranAt),
            trigger: t(`moneyAudit.trigger.${run.trigger}`),
          })}
        </Text>
      </Group>
      <Table fz="sm" data-testid="money-audit-checks">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('moneyAudit.invariant')}</Table.Th>
            <Table.Th>{t('moneyAudit.state')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {run.checks.map((check) => {
            const known = knownCheck(check.name);
            return (
              <Table.Tr key={check.name} data-testid={`money-audit-check-${check.name}`} data-ok={check.ok}>
                <Table.Td>{known ? t(`moneyAudit.checks.${known}`) : check.name}</Table.Td>
                <Table.Td>
                  <Text size="sm" c={check.ok ? 'teal.8' : 'red.8'} fw={check.ok ? undefined : 600}>
                    {check.ok ? t('moneyAudit.kept') : t('moneyAudit.rowCount', { count: check.count })}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {broken.map((check) => (
        <MoneyAuditRows key={check.name} check={check} />
      ))}
    </>
  );
}
