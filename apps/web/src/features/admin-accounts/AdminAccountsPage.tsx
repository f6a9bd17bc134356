import { Alert, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEXT_LIMITS } from '@helium/contracts';
import { useTooLongText } from '../forms/hooks/useIssueText.ts';
import { PageHeader } from '../../app/PageHeader.tsx';
import { QueryContent } from '../../app/QueryContent.tsx';
import { AccountsTables } from './components/AccountsTables.tsx';
import { CreateAccountForm } from './components/CreateAccountForm.tsx';
import { useAdminAccounts } from './hooks/useAdminAccounts.ts';

/** Admin: onboarding (issue 24, part 3): create publishers and advertisers, edit them and their campaigns. */
export function AdminAccountsPage() {
  const { t } = useTranslation();
  const accounts = useAdminAccounts();
  const { search, setSearch, query, create } = accounts;
  const tooLong = useTooLongText();
  return (
    <>
      <PageHeader title={t('nav.accounts')} />
      <Stack gap="lg">
        <CreateAccountForm onCreate={create} />
        <TextInput
          label={t('accounts.search')}
          placeholder={t('accounts.searchHint')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          type="search"
          error={tooLong(search, TEXT_LIMITS.search)}
        />
        <QueryContent data={query.data} isError={query.isError}>
          {(data) => (
            <Stack gap="lg">
              {data.truncated ? <Alert color="yellow">{t('accounts.truncated')}</Alert> : null}
              <AccountsTables
                accounts={data}
                onUpdatePublisher={accounts.updatePublisher}
                onUpdateAdvertiser={accounts.updateAdvertiser}
                onUpdateCampaign={accounts.updateCampaign}
                onCreateCampaign={accounts.createCampaign}
                onGrant={accounts.grant}
                onUpdateUser={accounts.updateUser}
              />
            </Stack>
          )}
        </QueryContent>
      </Stack>
    </>
  );
}
