import { Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CardCurrency } from '../hooks/usePurchasePayments.ts';

/**
 * The ways to pay (section 2.2): by card in euros or dollars; in Bitcoin when the campaign allows it; on an invoice
 * per currency when the campaign allows it and the price reaches the minimum order (below it, a line says from
 * what amount). All disabled while a payment
 * is in progress, while the price is being updated, or for nothing.
 */
export function PayButtons({
  disabled,
  canBuyInBtc,
  canBillToPay,
  onCard,
  onBitcoin,
  onInvoice,
  invoiceFrom,
}: {
  disabled: boolean;
  canBuyInBtc: boolean;
  canBillToPay: boolean;
  /** The minimum order for an invoice, as text, when the campaign may pay so but the price is below it. */
  invoiceFrom: string | null;
  onCard: (currency: CardCurrency) => void;
  onBitcoin: () => void;
  onInvoice: (currency: CardCurrency) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" data-testid="pay-buttons">
        <Button disabled={disabled} onClick={() => onCard('eur')}>
          {t('buy.payCardEur')}
        </Button>
        <Button disabled={disabled} onClick={() => onCard('usd')}>
          {t('buy.payCardUsd')}
        </Button>
        {canBuyInBtc ? (
          <Button disabled={disabled} color="orange" onClick={onBitcoin}>
            {t('buy.payBitcoin')}
          </Button>
        ) : null}
        {canBillToPay ? (
          <>
            <Button disabled={disabled} variant="light" onClick={() => onInvoice('eur')}>
              {t('buy.payInvoiceEur')}
            </Button>
            <Button disabled={disabled} variant="light" onClick={() => onInvoice('usd')}>
              {t('buy.payInvoiceUsd')}
            </Button>
          </>
        ) : null}
      </SimpleGrid>
      {invoiceFrom ? (
        <Text size="sm" c="dimmed" data-testid="invoice-from">
          {t('buy.invoiceFrom', { minimum: invoiceFrom })}
        </Text>
      ) : null}
    </Stack>
  );
}
