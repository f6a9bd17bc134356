import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getNetworkSettingsCall,
  updateNetworkSettingsCall,
  type TUpdateNetworkSettingsRequest,
} from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { useCurrentUser } from '../../user/hooks/useCurrentUser.ts';

export const NETWORK_SETTINGS_QUERY_KEY = ['admin', 'network-settings'] as const;

/** The settings in force and their history, and saving a change (the caller shows the refusals). */
export function useNetworkSettings() {
  const queryClient = useQueryClient();
  const { locale } = useCurrentUser();
  // Dates are written by the server in the user's language.
  const queryKey = [...NETWORK_SETTINGS_QUERY_KEY, locale];
  const query = useQuery({ queryKey, queryFn: () => apiPost(getNetworkSettingsCall) });
  const save = async (request: TUpdateNetworkSettingsRequest) => {
    try {
      return (await apiPost(updateNetworkSettingsCall, request)).settings;
    } finally {
      await queryClient.invalidateQueries({ queryKey: NETWORK_SETTINGS_QUERY_KEY });
    }
  };
  return { query, save };
}
