import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAccounting } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { balanceColour } from '../utils/payoutOptions.ts';

/** Total revenues, the balance (coloured by its sign) and the minimum balance for a payout. */
export function AccountingSummary({ accounting }: { accounting: TAccounting }) {
  const { t } = useTranslation();
  const format = useFormat();
  const cards = [
    { label: t('accounting.totalRevenues'), value: format.money(accounting.totalRevenues), testId: 'total-revenues' },
    {
      label: t('accounting.balance'),
      value: format.money(accounting.balance),
      testId: 'balance',
      colour: balanceColour(accounting.balanceSign),
    },
    {
      label: t('accounting.minimumForPayout'),
      value: format.money(accounting.minBalanceForPayout),
      testId: 'minimum-for-payout',
    },
  ];
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
      {cards.map((card) => (
        <Paper key={card.testId} withBorder p="md">
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {card.label}
            </Text>
            <Text
              fz="xl"
              fw={700}
              c={card.colour}
              data-testid={card.testId}
              data-sign={card.testId === 'balance' ? accounting.balanceSign : undefined}
              style={{ whiteSpace: 'nowrap' }}
            >
              {card.value}
            </Text>
          </Stack>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
