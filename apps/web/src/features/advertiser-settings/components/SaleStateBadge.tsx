import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TSale } from '@helium/contracts';
import { saleStateColour } from '../utils/settings.ts';

/** A sale's state: paid, unpaid, pending or cancelled, never cut short by a narrow column. */
export function SaleStateBadge({ state }: { state: TSale['state'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={saleStateColour(state)} variant="light" style={{ minWidth: 'max-content' }}>
      {t(`advertiserSetting.states.${state}`)}
    </Badge>
  );
}
