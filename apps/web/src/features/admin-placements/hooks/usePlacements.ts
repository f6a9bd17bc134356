import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getPlacementsCall, updatePlacementsCall, type TPlacementFields } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { PLACEMENTS_QUERY_KEY } from './usePlacementPublishers.ts';

/** A publisher's placements, and saving the whole list (the caller shows the refusals). */
export function usePlacements(publisherId: number | null) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: [...PLACEMENTS_QUERY_KEY, 'publisher', publisherId],
    queryFn: () => apiPost(getPlacementsCall, { publisherId: publisherId! }),
    enabled: publisherId !== null,
    retry: false,
  });
  const save = async (placements: TPlacementFields[]) => {
    const saved = await apiPost(updatePlacementsCall, { publisherId: publisherId!, placements });
    queryClient.setQueryData([...PLACEMENTS_QUERY_KEY, 'publisher', publisherId], {
      publisher: saved.publisher,
      placements: saved.placements,
    });
    await queryClient.invalidateQueries({ queryKey: [...PLACEMENTS_QUERY_KEY, 'publishers'] });
    return saved;
  };
  return { query, save };
}
