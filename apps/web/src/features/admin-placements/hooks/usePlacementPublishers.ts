import { useQuery } from '@tanstack/react-query';
import { getPlacementPublishersCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

export const PLACEMENTS_QUERY_KEY = ['admin', 'placements'] as const;

/** The web publishers an admin may place ads for. */
export function usePlacementPublishers() {
  return useQuery({
    queryKey: [...PLACEMENTS_QUERY_KEY, 'publishers'],
    queryFn: async () => (await apiPost(getPlacementPublishersCall)).publishers,
  });
}
