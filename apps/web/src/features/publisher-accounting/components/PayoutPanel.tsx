import { Alert, Anchor, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TAccounting } from '@helium/contracts';
import type { Locale } from '@helium/domain/format';
import { useFormat } from '../../format/hooks/useFormat.ts';
import {
  payoutBlockerOf,
  payoutOptions,
  payoutRequest,
  TRANSFER_TIME_KEY,
  type PayoutOption,
} from '../utils/payoutOptions.ts';
import { PayoutMenu } from './PayoutMenu.tsx';

const SETTINGS_PATH = '/publisher/settings';
/** The order of the transfer times (section 2.5). */
const TRANSFER_TIME_ORDER = ['usd', 'btc', 'eur'] as const;

/**
 * Withdrawing the balance: the Payout menu, what each way costs and takes, where to configure a method, and the
 * server's refusal when there is one. A payout is asked only after the browser's confirmation.
 */
export function PayoutPanel({
  accounting,
  requesting,
  error,
  onRequest,
}: {
  accounting: TAccounting;
  requesting: boolean;
  error: string | null;
  onRequest: (request: ReturnType<typeof payoutRequest>) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const locale: Locale = format.locale;
  const options = payoutOptions(accounting, locale);
  // A pending payout has its own banner; the other reasons are said beside the disabled button.
  const blocker = payoutBlockerOf(accounting);

  const choose = (option: PayoutOption) => {
    if (!option.enabled || requesting) return;
    const question = t('accounting.confirmPayout', {
      amount: option.amountStr ?? '',
      method: t(`payout.methods.${option.method}`),
      currency: t(`payout.currencies.${option.currency}`),
      balance: format.euros(accounting.balance),
    });
    if (window.confirm(question)) onRequest(payoutRequest(accounting, option.method, option.currency, locale));
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="payout-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="payout-title">
          {t('accounting.payoutTitle')}
        </Title>
        <Text size="sm">{t('accounting.payoutIntro', { minimum: format.euros(accounting.minBalanceForPayout) })}</Text>
        <Group gap="md" align="center">
          <PayoutMenu
            options={options}
            disabled={!accounting.canPayout || requesting}
            loading={requesting}
            onChoose={choose}
            describedBy={blocker ? 'payout-blocked' : undefined}
          />
          <Anchor component={Link} to={SETTINGS_PATH} size="sm">
            {t('accounting.configurePayout')}
          </Anchor>
        </Group>
        {blocker ? (
          <Text size="sm" c="dimmed" id="payout-blocked" data-testid="payout-blocked">
            {t(`accounting.payoutBlocked.${blocker}`, { minimum: format.euros(accounting.minBalanceForPayout) })}
          </Text>
        ) : null}
        {error !== null ? (
          <Alert color="red" role="alert" data-testid="payout-error">
            {error || t('common.error')}
          </Alert>
        ) : null}
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {t('accounting.transferTimes')}
          </Text>
          <List size="sm" spacing={2}>
            {TRANSFER_TIME_ORDER.map((currency) => (
              <List.Item key={currency} data-testid={`transfer-time-${currency}`}>
                {t('accounting.transferTimeOf', {
                  currency: t(`payout.currencies.${currency}`),
                  time: t(TRANSFER_TIME_KEY[currency]),
                })}
              </List.Item>
            ))}
          </List>
          <Text size="sm" c="dimmed">
            {t('accounting.feesNote', {
              paypal: format.euros(accounting.transferFees.paypal),
              wire: format.euros(accounting.transferFees.wire),
            })}
          </Text>
        </Stack>
      </Stack>
    </Paper>
  );
}
