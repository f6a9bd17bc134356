import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SALE_FILTERS } from '@helium/contracts';
import type { SaleFilter } from '../hooks/useSales.ts';

/** Which sales to list: those to confirm (pending Bitcoin payments and unpaid invoices), one state, or all. */
export function SalesFilter({ value, onChange }: { value: SaleFilter; onChange: (filter: SaleFilter) => void }) {
  const { t } = useTranslation();
  return (
    <NativeSelect
      label={t('adminPayments.filter')}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value as SaleFilter)}
      data={SALE_FILTERS.map((filter) => ({ value: filter, label: t(`adminPayments.filters.${filter}`) }))}
      maw={280}
    />
  );
}
