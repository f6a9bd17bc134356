import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { ZTestCheckoutSchema } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { checkoutAmount } from '../utils/checkoutAmount.ts';

/** What is being bought: the advertiser's brand, the credits and the amount charged. */
export function CheckoutSummary({ checkout }: { checkout: z.infer<typeof ZTestCheckoutSchema> }) {
  const { t } = useTranslation();
  const format = useFormat();
  const quantity = format.number(checkout.quantity);
  return (
    <Table variant="vertical" layout="fixed" withTableBorder aria-label={t('testCheckout.summary')}>
      <Table.Tbody>
        <Table.Tr>
          <Table.Th w="40%">{t('testCheckout.brand')}</Table.Th>
          <Table.Td data-testid="checkout-brand">{checkout.brand}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>{t('testCheckout.quantity')}</Table.Th>
          <Table.Td data-testid="checkout-quantity">
            {checkout.is_cpc ? t('buy.clicks', { n: quantity }) : t('buy.impressions', { n: quantity })}
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>{t('testCheckout.amount')}</Table.Th>
          <Table.Td data-testid="checkout-amount" fw={700}>
            {checkoutAmount(checkout.amount, checkout.currency, format.locale)}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}
