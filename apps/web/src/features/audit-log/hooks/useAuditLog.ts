import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getAuditLogCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

export const AUDIT_LOG_QUERY_KEY = ['admin', 'audit-log'] as const;

export interface AuditFilter {
  userId: number | null;
  action: string | null;
}

/** The audit log's page and filters (a user, acting or acted on; an action). */
export function useAuditLog() {
  const [filter, setFilterState] = useState<AuditFilter>({ userId: null, action: null });
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: [...AUDIT_LOG_QUERY_KEY, filter.userId, filter.action, page],
    queryFn: () =>
      apiPost(getAuditLogCall, {
        userId: filter.userId ?? undefined,
        action: filter.action ?? undefined,
        page,
      }),
    placeholderData: (previous) => previous,
  });
  const setFilter = (next: Partial<AuditFilter>) => {
    setFilterState((current) => ({ ...current, ...next }));
    setPage(1);
  };
  return { filter, setFilter, page, setPage, query };
}
