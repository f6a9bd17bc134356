import { Fragment } from 'react';
import { Button, Menu, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PAYOUT_METHODS } from '@helium/domain/payouts';
import { TRANSFER_TIME_KEY, type PayoutOption } from '../utils/payoutOptions.ts';

/**
 * The Payout button (disabled unless canPayout) and its menu: one group per method (Bitcoin, PayPal, bank transfer),
 * one entry per currency with what would be received, its fee or "no fees", and how long the transfer takes.
 * Entries of a method that cannot be used are dimmed.
 */
export function PayoutMenu({
  options,
  disabled,
  loading,
  onChoose,
  describedBy,
}: {
  options: PayoutOption[];
  disabled: boolean;
  loading: boolean;
  onChoose: (option: PayoutOption) => void;
  /** The id of the text saying why the button is disabled. */
  describedBy?: string;
}) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-start" width="min(380px, calc(100vw - 32px))" shadow="md" withinPortal>
      <Menu.Target>
        <Button disabled={disabled} loading={loading} data-testid="payout-button" aria-describedby={describedBy}>
          {t('accounting.payout')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="payout-menu">
        {PAYOUT_METHODS.map((method, index) => (
          <Fragment key={method}>
            {index > 0 ? <Menu.Divider /> : null}
            <Menu.Label>{t(`payout.methods.${method}`)}</Menu.Label>
            {options
              .filter((option) => option.method === method)
              .map((option) => (
                <PayoutMenuItem key={option.currency} option={option} onChoose={onChoose} />
              ))}
          </Fragment>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function PayoutMenuItem({ option, onChoose }: { option: PayoutOption; onChoose: (option: PayoutOption) => void }) {
  const { t } = useTranslation();
  return (
    <Menu.Item
      disabled={!option.enabled}
      onClick={() => onChoose(option)}
      data-testid={`payout-${option.method}-${option.currency}`}
    >
      <Stack gap={0}>
        <Text size="sm" fw={600}>
          <VisuallyHidden>{`${t(`payout.methods.${option.method}`)} `}</VisuallyHidden>
          {t(`payout.currencies.${option.currency}`)}
          {' · '}
          <span style={{ whiteSpace: 'nowrap' }}>{option.amountStr ?? t('accounting.amountUnknown')}</span>
        </Text>
        <Text size="xs" c="dimmed">
          {option.feeStr ? t('accounting.transferFee', { fee: option.feeStr }) : t('accounting.noFees')}
          {' · '}
          {t(TRANSFER_TIME_KEY[option.currency])}
        </Text>
        {option.problem ? (
          <Text size="xs" c="dimmed">
            {t(`accounting.problems.${option.problem}`)}
          </Text>
        ) : null}
      </Stack>
    </Menu.Item>
  );
}
