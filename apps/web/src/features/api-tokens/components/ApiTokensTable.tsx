import { Button, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TApiToken } from '@helium/contracts';
import { USER_TYPE } from '@helium/domain/roles';
import { useFormat } from '../../format/hooks/useFormat.ts';

/**
 * The user's live tokens, newest first: name, the account it reads, creation and last use; each revoked after the
 * browser's confirmation.
 */
export function ApiTokensTable({
  tokens,
  revoking,
  onRevoke,
}: {
  tokens: TApiToken[];
  /** The token being revoked, if any. */
  revoking: number | null;
  onRevoke: (token: TApiToken) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  // The account a token reads: the one in use when it was made (older tokens read the account in use).
  const accountOf = ({ account }: TApiToken) => {
    if (!account) return t('apiTokens.accountInUse');
    if (account.type === USER_TYPE.admin) return t('apiTokens.accountAdmin');
    return account.brand ?? t('apiTokens.accountGone');
  };
  if (tokens.length === 0) {
    return (
      <Text c="dimmed" data-testid="api-tokens-empty">
        {t('apiTokens.empty')}
      </Text>
    );
  }
  // Narrow enough for a phone: the Revoke button stays in view without scrolling sideways.
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table aria-label={t('apiTokens.tableLabel')} data-testid="api-tokens-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('apiTokens.name')}</Table.Th>
            <Table.Th>{t('apiTokens.account')}</Table.Th>
            <Table.Th>{t('apiTokens.created')}</Table.Th>
            <Table.Th>{t('apiTokens.lastUsed')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.map((token) => (
            <Table.Tr key={token.id} data-testid={`api-token-${token.id}`}>
              <Table.Td className="user-text">{token.name}</Table.Td>
              <Table.Td className="user-text">{accountOf(token)}</Table.Td>
              <Table.Td>{format.dateTime(token.createdAt)}</Table.Td>
              <Table.Td>{token.lastUsedAt ? format.dateTime(token.lastUsedAt) : t('apiTokens.never')}</Table.Td>
              <Table.Td ta="right">
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  loading={revoking === token.id}
                  onClick={() => onRevoke(token)}
                  aria-label={t('apiTokens.revokeOf', { name: token.name })}
                >
                  {t('apiTokens.revoke')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
