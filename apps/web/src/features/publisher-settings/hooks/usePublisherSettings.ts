import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getPublisherSettingsCall,
  savePublisherSettingsCall,
  type TSavePublisherSettingsRequest,
} from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { useCurrentUser } from '../../user/hooks/useCurrentUser.ts';

export const PUBLISHER_SETTINGS_QUERY_KEY = ['publisher', 'settings'] as const;

/** The payout details of the publisher in use, and saving one method's (the caller shows the refusals). */
export function usePublisherSettings() {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const queryKey = [...PUBLISHER_SETTINGS_QUERY_KEY, user.accountId];
  const query = useQuery({ queryKey, queryFn: () => apiPost(getPublisherSettingsCall) });
  const save = async (request: TSavePublisherSettingsRequest) => {
    await apiPost(savePublisherSettingsCall, request);
    await queryClient.invalidateQueries({ queryKey });
  };
  return { query, settings: query.data, save, reload: () => query.refetch() };
}
