import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminPayout } from '@helium/contracts';
import type { PayoutDecision } from '../utils/payouts.ts';
import { PayoutRow } from './PayoutRow.tsx';

/** The payouts of the chosen filter. */
export function AdminPayoutsTable({
  payouts,
  onDecide,
}: {
  payouts: TAdminPayout[];
  onDecide: (payout: TAdminPayout, decision: PayoutDecision) => void;
}) {
  const { t } = useTranslation();
  if (payouts.length === 0) {
    return (
      <Text c="dimmed" data-testid="admin-payouts-empty">
        {t('adminPayouts.noPayouts')}
      </Text>
    );
  }
  const headers: [string, 'left' | 'right'][] = [
    [t('adminPayouts.publisher'), 'left'],
    [t('adminPayouts.method'), 'left'],
    [t('adminPayouts.details'), 'left'],
    [t('adminPayouts.toSend'), 'right'],
    [t('adminPayouts.requested'), 'left'],
    [t('adminPayouts.state'), 'left'],
  ];
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table aria-label={t('adminPayouts.title')} data-testid="admin-payouts" striped fz="sm" horizontalSpacing={8}>
        <Table.Thead>
          <Table.Tr>
            {headers.map(([header, align]) => (
              <Table.Th key={header} ta={align}>
                {header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payouts.map((payout) => (
            <PayoutRow key={payout.id} payout={payout} onDecide={onDecide} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
