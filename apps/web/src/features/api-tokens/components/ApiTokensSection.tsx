import { useState } from 'react';
import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TApiToken, TCreatedApiToken } from '@helium/contracts';
import { QueryContent } from '../../../app/QueryContent.tsx';
import { apiErrorMessage } from '../../../api/client.ts';
import { useApiTokens } from '../hooks/useApiTokens.ts';
import { ApiTokensTable } from './ApiTokensTable.tsx';
import { CreateApiTokenForm } from './CreateApiTokenForm.tsx';
import { NewApiToken } from './NewApiToken.tsx';

/**
 * "API tokens" (issue 35, point 3), on the advertiser's and the publisher's Settings and the admin's own page: create
 * a named token (shown once), list them with their creation and last use, revoke one after a confirmation.
 */
export function ApiTokensSection() {
  const { t } = useTranslation();
  const { query, tokens, create, revoke } = useApiTokens();
  const [created, setCreated] = useState<(TCreatedApiToken & { name: string }) | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);

  const askRevoke = async (token: TApiToken) => {
    if (!window.confirm(t('apiTokens.revokeConfirm', { name: token.name }))) return;
    setRevokeError(null);
    try {
      await revoke.mutateAsync(token.id);
      if (created?.id === token.id) setCreated(null);
    } catch (caught) {
      setRevokeError(apiErrorMessage(caught) ?? t('common.error'));
    }
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="api-tokens-title" data-testid="api-tokens">
      <Stack gap="sm">
        <Title order={2} size="h4" id="api-tokens-title">
          {t('apiTokens.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('apiTokens.intro')}
        </Text>
        <CreateApiTokenForm onCreate={(name) => create.mutateAsync(name)} onCreated={setCreated} />
        {created ? <NewApiToken name={created.name} token={created.token} onDone={() => setCreated(null)} /> : null}
        {revokeError ? (
          <Alert color="red" role="alert">
            {revokeError}
          </Alert>
        ) : null}
        <QueryContent data={tokens} isError={query.isError}>
          {(tokens) => (
            <ApiTokensTable
              tokens={tokens}
              revoking={revoke.isPending ? (revoke.variables ?? null) : null}
              onRevoke={(token) => void askRevoke(token)}
            />
          )}
        </QueryContent>
      </Stack>
    </Paper>
  );
}
