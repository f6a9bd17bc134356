import { Group, LoadingOverlay, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEXT_LIMITS } from '@helium/contracts';
import { useTooLongText } from '../forms/hooks/useIssueText.ts';
import { PageHeader } from '../../app/PageHeader.tsx';
import { Pages } from '../../app/Pages.tsx';
import { QueryContent } from '../../app/QueryContent.tsx';
import { AdminUsersTable } from './components/AdminUsersTable.tsx';
import { useAdminUsers } from './hooks/useAdminUsers.ts';

/** Admin: Users (spec 01, section 2; issue 24): searched by name or e-mail, paged, with "Sign In ->" per user. */
export function AdminUsersPage() {
  const { t } = useTranslation();
  const { search, setSearch, page, setPage, query } = useAdminUsers();
  const tooLong = useTooLongText();
  return (
    <>
      <PageHeader title={t('nav.users')} />
      <Paper withBorder p="md" pos="relative">
        <LoadingOverlay visible={query.isFetching && query.isPlaceholderData} />
        <Stack gap="md">
          <TextInput
            label={t('adminUsers.search')}
            placeholder={t('adminUsers.searchPlaceholder')}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            error={tooLong(search, TEXT_LIMITS.search)}
            maw={420}
          />
          <QueryContent data={query.data} isError={query.isError}>
            {(data) => (
              <Stack gap="sm">
                <AdminUsersTable users={data.users} />
                <Group justify="space-between">
                  <Text size="sm" c="dimmed" data-testid="admin-users-total">
                    {t('adminUsers.total', { count: data.total })}
                  </Text>
                  <Pages
                    label={t('adminUsers.pages')}
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
