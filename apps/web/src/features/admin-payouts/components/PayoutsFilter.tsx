import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PAYOUT_FILTERS, type PayoutFilter } from '../utils/payouts.ts';

/** Which payouts to list: pending (to send), paid, returned, or all. */
export function PayoutsFilter({ value, onChange }: { value: PayoutFilter; onChange: (filter: PayoutFilter) => void }) {
  const { t } = useTranslation();
  return (
    <NativeSelect
      label={t('adminPayouts.filter')}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value as PayoutFilter)}
      data={PAYOUT_FILTERS.map((filter) => ({ value: filter, label: t(`adminPayouts.filters.${filter}`) }))}
      maw={280}
    />
  );
}
