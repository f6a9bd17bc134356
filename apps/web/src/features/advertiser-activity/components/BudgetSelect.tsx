import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignAd } from '@helium/contracts';
import { budgetChoices, budgetToSend } from '@helium/domain/activity';
import { useFormat } from '../../format/hooks/useFormat.ts';
import type { AdTableProps } from './AdTable.tsx';

export function BudgetSelect({
  ad,
  onBudget,
  disabled,
}: {
  ad: TCampaignAd;
  onBudget: AdTableProps['onBudget'];
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const choices = budgetChoices(ad.stats.total.costs, ad.stats.total.remainingMaxBudget, ad.budget);
  const data = [
    { value: '-1', label: t('activity.noBudget') },
    ...choices.map((value) => ({
      value: String(value),
      label: t('activity.maxAmount', { amount: format.euros(value) }),
    })),
  ];
  // As wide as its longest choice ("Pas de budget", "Max 1 000,00 €"), plus the padding and the arrow: never cut.
  const longest = Math.max(...data.map((choice) => choice.label.length));
  return (
    <Select
      size="xs"
      w={`calc(${longest}ch + 44px)`}
      aria-label={t('activity.budget')}
      data={data}
      value={ad.budget > 0 ? String(ad.budget) : '-1'}
      allowDeselect={false}
      disabled={disabled}
      onChange={(value) => value !== null && onBudget(ad, budgetToSend(Number(value)))}
    />
  );
}
