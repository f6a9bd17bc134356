import { Group, Loader, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TPriceBreakdown } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { breakdownTexts } from '../utils/purchase.ts';
import { vatTexts } from '../utils/vat.ts';

/**
 * The price of the chosen quantity: full, discounted, its VAT and unit price as the invoice will split them, in Bitcoin
 * (when allowed) and in dollars (section 2.2).
 */
export function PurchaseBreakdown({
  price,
  canBuyInBtc,
  pending,
  cpm,
  cpc,
  vatBp,
  quantity,
}: {
  price: TPriceBreakdown;
  canBuyInBtc: boolean;
  /** The figures are the modal's own until the server has priced the quantity. */
  pending: boolean;
  cpm: number | null;
  cpc: number | null;
  /** The VAT rate in force (prices include it), and the quantity priced: the invoice's split and unit price. */
  vatBp: number;
  quantity: number;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const texts = breakdownTexts(price, format.locale);
  const discounted = price.discountPct > 0;
  const vat = vatTexts(price.discounted, vatBp, quantity, cpm === null, format.locale);
  return (
    <div>
      <Group justify="space-between" gap="xs" mb={4}>
        <Text size="sm" c="dimmed">
          {cpm !== null ? t('buy.atCpm', { amount: format.euros(cpm) }) : t('buy.atCpc', { amount: format.euros(cpc) })}
        </Text>
        {pending ? <Loader size="xs" aria-label={t('buy.pricing')} /> : null}
      </Group>
      <Table variant="vertical" layout="fixed" withTableBorder aria-label={t('buy.breakdown')} aria-busy={pending}>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w="55%">{t('buy.full')}</Table.Th>
            <Table.Td data-testid="buy-full" td={discounted ? 'line-through' : undefined}>
              {texts.full}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{discounted ? t('buy.discounted', { pct: texts.discountPct }) : t('buy.price')}</Table.Th>
            <Table.Td data-testid="buy-discounted" fw={700}>
              {texts.discounted}
            </Table.Td>
          </Table.Tr>
          {vat.rate ? (
            <>
              <Table.Tr>
                <Table.Th>{t('buy.excludingVat')}</Table.Th>
                <Table.Td data-testid="buy-excluding-vat">{vat.excludingVat}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('buy.vat', { rate: vat.rate })}</Table.Th>
                <Table.Td data-testid="buy-vat">{vat.vat}</Table.Td>
              </Table.Tr>
            </>
          ) : null}
          <Table.Tr>
            <Table.Th>{t('buy.unitPrice')}</Table.Th>
            <Table.Td data-testid="buy-unit-price">
              {cpm === null
                ? t('buy.perClick', { price: vat.unitPrice })
                : t('buy.perThousand', { price: vat.unitPrice })}
            </Table.Td>
          </Table.Tr>
          {canBuyInBtc ? (
            <Table.Tr>
              <Table.Th>{t('buy.bitcoin')}</Table.Th>
              <Table.Td data-testid="buy-bitcoin">
                {texts.bitcoin}
                <Text span size="sm" c="dimmed">
                  {` (${texts.bitcoinEuros})`}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
          <Table.Tr>
            <Table.Th>{t('buy.dollar')}</Table.Th>
            <Table.Td data-testid="buy-dollar">
              {texts.dollars}
              <Text span size="sm" c="dimmed">
                {` (${texts.dollarEuros})`}
              </Text>
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt={4} data-testid="buy-vat-note">
        {vat.rate ? t('buy.vatIncluded', { rate: vat.rate }) : t('buy.noVat')}
      </Text>
    </div>
  );
}
