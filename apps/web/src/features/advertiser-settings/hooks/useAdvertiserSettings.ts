import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getAdvertiserSettingsCall, saveAdvertiserSettingsCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

export const ADVERTISER_SETTINGS_QUERY_KEY = ['advertiser', 'settings'] as const;

/** The advertiser's settings (name, billing information, sales) and saving the billing address. */
export function useAdvertiserSettings() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ADVERTISER_SETTINGS_QUERY_KEY,
    queryFn: () => apiPost(getAdvertiserSettingsCall),
  });
  const save = useMutation({
    mutationFn: (address: string) =>
      apiPost(saveAdvertiserSettingsCall, { field: 'billingInformation', data: { address } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ADVERTISER_SETTINGS_QUERY_KEY }),
    onError: (error) => console.error('save-settings failed', error),
  });
  return { query, settings: query.data, save };
}
