import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getInvalidTrafficCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

/** The windows an admin can look back over, in days. */
export const INVALID_TRAFFIC_WINDOWS = [1, 7, 30, 90] as const;

/** What the traffic rules set aside over the chosen window (the day texts follow the user's language). */
export function useInvalidTraffic() {
  const { i18n } = useTranslation();
  const [days, setDays] = useState<number>(7);
  const query = useQuery({
    queryKey: ['admin', 'invalid-traffic', days, i18n.language],
    queryFn: () => apiPost(getInvalidTrafficCall, { days }),
    placeholderData: (previous) => previous,
  });
  return { days, setDays, query };
}
