import { Group, LoadingOverlay, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../app/PageHeader.tsx';
import { Pages } from '../../app/Pages.tsx';
import { QueryContent } from '../../app/QueryContent.tsx';
import { AuditLogFilters } from './components/AuditLogFilters.tsx';
import { AuditLogTable } from './components/AuditLogTable.tsx';
import { useAuditLog } from './hooks/useAuditLog.ts';

/** Admin: the audit log (issue 24): who did what, when, to which record; filtered by user and action. */
export function AuditLogPage() {
  const { t } = useTranslation();
  const { filter, setFilter, page, setPage, query } = useAuditLog();
  return (
    <>
      <PageHeader title={t('nav.auditLog')} />
      <Paper withBorder p="md" pos="relative">
        <LoadingOverlay visible={query.isFetching && query.isPlaceholderData} />
        <Stack gap="md">
          <AuditLogFilters filter={filter} actions={query.data?.actions ?? []} onChange={setFilter} />
          <QueryContent data={query.data} isError={query.isError}>
            {(data) => (
              <Stack gap="sm">
                <AuditLogTable entries={data.entries} />
                <Group justify="space-between">
                  <Text size="sm" c="dimmed">
                    {t('auditLog.total', { count: data.total })}
                  </Text>
                  <Pages
                    label={t('auditLog.pages')}
                    pages={Math.ceil(data.total / data.pageSize)}
                    page={page}
                    onChange={setPage}
                  />
                </Group>
              </Stack>
            )}
          </QueryContent>
        </Stack>
      </Paper>
    </>
  );
}
