import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCoupon } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';

/** The coupons: what each gives, until when, and how many advertisers used it. */
export function CouponTable({ coupons }: { coupons: TCoupon[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (coupons.length === 0) return <Text c="dimmed">{t('adminPayments.noCoupons')}</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label={t('adminPayments.couponsTitle')} data-testid="coupons">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('adminPayments.couponCode')}</Table.Th>
            <Table.Th>{t('adminPayments.gives')}</Table.Th>
            <Table.Th>{t('adminPayments.expires')}</Table.Th>
            <Table.Th ta="right">{t('adminPayments.redemptions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {coupons.map((coupon) => (
            <Table.Tr key={coupon.id}>
              <Table.Td ff="monospace" className="user-text">
                {coupon.code}
              </Table.Td>
              <Table.Td>
                {coupon.percentOff !== null
                  ? t('adminPayments.givesPercent', { pct: format.percent(coupon.percentOff, 0) })
                  : t('adminPayments.givesFree', { n: format.number(coupon.freeQuantity ?? 0) })}
              </Table.Td>
              <Table.Td>{coupon.expiresAt ? format.date(coupon.expiresAt) : t('adminPayments.never')}</Table.Td>
              <Table.Td ta="right">{format.number(coupon.redemptions)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
