import { Button, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminPayout } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import type { PayoutDecision } from '../utils/payouts.ts';
import { PayoutDetailsList } from './PayoutDetailsList.tsx';
import { PayoutStateBadge } from './PayoutStateBadge.tsx';

/** One payout: who, how and where, how much, when, its state and, while pending, marking it paid or returned. */
export function PayoutRow({
  payout,
  onDecide,
}: {
  payout: TAdminPayout;
  onDecide: (payout: TAdminPayout, decision: PayoutDecision) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Table.Tr data-testid={`admin-payout-${payout.id}`}>
      <Table.Td>
        <Text size="sm" fw={600}>
          {payout.brand}
        </Text>
        <Text size="xs" c="dimmed" className="user-text">
          {payout.email}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {t(`payout.methods.${payout.method}`)}
        <Text size="xs" c="dimmed">
          {t(`payout.currencies.${payout.currency}`)}
        </Text>
      </Table.Td>
      <Table.Td miw={200}>
        <PayoutDetailsList details={payout.details} />
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm" fw={700} data-testid="amount-to-send">
          {payout.amountToSendStr}
        </Text>
        <Text size="xs" c="dimmed" data-testid="amount-debited">
          {t('adminPayouts.debitedIs', { amount: format.euros(payout.amount) })}
        </Text>
        <Text size="xs" c="dimmed" data-testid="transfer-fee">
          {payout.transferFee > 0
            ? t('adminPayouts.feeIs', { fee: format.euros(payout.transferFee) })
            : t('adminPayouts.noFee')}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{payout.createdAtStr}</Table.Td>
      <Table.Td>
        <Stack gap={6} align="flex-start">
          <PayoutStateBadge state={payout.state} />
          {payout.decidedAtStr ? (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {payout.decidedAtStr}
            </Text>
          ) : null}
          {payout.reference ? (
            <Text size="xs" data-testid="payout-reference">
              {t('adminPayouts.referenceIs', { reference: payout.reference })}
            </Text>
          ) : null}
          {payout.reason ? (
            <Text size="xs" data-testid="payout-reason">
              {t('adminPayouts.reasonIs', { reason: payout.reason })}
            </Text>
          ) : null}
          {payout.state === 'pending' ? (
            <Stack gap={4} align="stretch">
              <Button
                size="compact-sm"
                color="teal"
                onClick={() => onDecide(payout, 'paid')}
                aria-label={t('adminPayouts.markPaidOf', { id: payout.id })}
              >
                {t('adminPayouts.markPaid')}
              </Button>
              <Button
                size="compact-sm"
                variant="default"
                onClick={() => onDecide(payout, 'returned')}
                aria-label={t('adminPayouts.markReturnedOf', { id: payout.id })}
              >
                {t('adminPayouts.markReturned')}
              </Button>
            </Stack>
          ) : null}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}
