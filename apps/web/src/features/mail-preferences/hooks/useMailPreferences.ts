import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getMailPreferencesCall, updateMailPreferencesCall, type TMailPreferences } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

export const MAIL_PREFERENCES_QUERY_KEY = ['common', 'mail-preferences'] as const;

/**
 * The signed-in user's choice of report mails. A change shows at once and is saved at once; the stored choice
 * comes back with the answer, and a change that could not be saved is undone on screen.
 */
export function useMailPreferences() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: MAIL_PREFERENCES_QUERY_KEY,
    queryFn: () => apiPost(getMailPreferencesCall),
  });
  const save = useMutation({
    mutationFn: (change: Partial<TMailPreferences>) => apiPost(updateMailPreferencesCall, change),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: MAIL_PREFERENCES_QUERY_KEY });
      const previous = queryClient.getQueryData<TMailPreferences>(MAIL_PREFERENCES_QUERY_KEY);
      if (previous) queryClient.setQueryData(MAIL_PREFERENCES_QUERY_KEY, { ...previous, ...change });
      return { previous };
    },
    onSuccess: (stored) => queryClient.setQueryData(MAIL_PREFERENCES_QUERY_KEY, stored),
    onError: (error, _change, context) => {
      console.error('update-mail-preferences failed', error);
      if (context?.previous) queryClient.setQueryData(MAIL_PREFERENCES_QUERY_KEY, context.previous);
    },
  });
  return { query, preferences: query.data, save };
}
