import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import {
  createAccountCall,
  createCampaignCall,
  getAccountsCall,
  TEXT_LIMITS,
  grantCampaignCreditsCall,
  updateAccountUserCall,
  updateAdvertiserCall,
  updateAdvertiserCampaignCall,
  updatePublisherCall,
  type TCreateAccountRequest,
  type TCreateCampaignRequest,
  type TGrantCampaignCreditsRequest,
  type TUpdateAccountUserRequest,
  type TUpdateAdvertiserCampaignRequest,
  type TUpdateAdvertiserRequest,
  type TUpdatePublisherRequest,
} from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

export const ACCOUNTS_QUERY_KEY = ['admin', 'accounts'] as const;

/** The accounts an admin looks at (searched), and the changes it makes to them (the caller shows the refusals). */
export function useAdminAccounts() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const query = useQuery({
    queryKey: [...ACCOUNTS_QUERY_KEY, debounced],
    queryFn: () => apiPost(getAccountsCall, { search: debounced }),
    placeholderData: (previous) => previous,
    // A search over its limit is said beside the field (AdminAccountsPage), not sent cut.
    enabled: debounced.length <= TEXT_LIMITS.search,
  });
  const refreshing = async <T>(action: Promise<T>) => {
    try {
      return await action;
    } finally {
      await queryClient.invalidateQueries({ queryKey: ACCOUNTS_QUERY_KEY });
    }
  };
  return {
    search,
    setSearch,
    query,
    create: (request: TCreateAccountRequest) => refreshing(apiPost(createAccountCall, request)),
    updatePublisher: (request: TUpdatePublisherRequest) => refreshing(apiPost(updatePublisherCall, request)),
    updateAdvertiser: (request: TUpdateAdvertiserRequest) => refreshing(apiPost(updateAdvertiserCall, request)),
    updateCampaign: (request: TUpdateAdvertiserCampaignRequest) =>
      refreshing(apiPost(updateAdvertiserCampaignCall, request)),
    createCampaign: (request: TCreateCampaignRequest) => refreshing(apiPost(createCampaignCall, request)),
    updateUser: (request: TUpdateAccountUserRequest) => refreshing(apiPost(updateAccountUserCall, request)),
    grant: (request: TGrantCampaignCreditsRequest) => refreshing(apiPost(grantCampaignCreditsCall, request)),
  };
}
