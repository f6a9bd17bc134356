import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminPayout } from '@helium/contracts';
import { payoutStateColour } from '../utils/payouts.ts';

/** A payout's state: pending, paid or returned. */
export function PayoutStateBadge({ state }: { state: TAdminPayout['state'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={payoutStateColour(state)} variant="light" style={{ minWidth: 'max-content' }}>
      {t(`adminPayouts.states.${state}`)}
    </Badge>
  );
}
