import { useState } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { API_TOKEN_NAME_MAX, API_TOKENS_PER_USER, type TCreatedApiToken } from '@helium/contracts';
import { apiErrorMessage, isApiError } from '../../../api/client.ts';
import { tokenNameProblem, type TokenNameProblem } from '../utils/tokenName.ts';

const PROBLEM_KEY = {
  empty: 'apiTokens.errorName',
  tooLong: 'apiTokens.errorNameLong',
  notOneLine: 'apiTokens.errorNameLine',
} as const satisfies Record<TokenNameProblem, string>;

/** The name of a new token and its Create button; what is wrong is said beside the field. */
export function CreateApiTokenForm({
  onCreate,
  onCreated,
}: {
  onCreate: (name: string) => Promise<TCreatedApiToken>;
  onCreated: (created: TCreatedApiToken & { name: string }) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const create = async () => {
    const problem = tokenNameProblem(name);
    if (problem) {
      setError(t(PROBLEM_KEY[problem], { max: API_TOKEN_NAME_MAX }));
      return;
    }
    setCreating(true);
    setError(null);
    try {
      const created = await onCreate(name);
      onCreated({ ...created, name: name.trim() });
      setName('');
    } catch (caught) {
      setError(
        isApiError(caught, 409)
          ? t('apiTokens.errorTooMany', { max: API_TOKENS_PER_USER })
          : (apiErrorMessage(caught) ?? t('common.error')),
      );
    } finally {
      setCreating(false);
    }
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void create();
      }}
      noValidate
    >
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label={t('apiTokens.name')}
          placeholder={t('apiTokens.namePlaceholder')}
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            if (error) setError(null);
          }}
          error={error}
          style={{ flex: '1 1 220px', maxWidth: 420 }}
          data-testid="api-token-name"
        />
        {/* Level with the field, below its label. */}
        <Button type="submit" loading={creating} mt={{ base: 0, xs: 25 }} data-testid="api-token-create">
          {t('apiTokens.create')}
        </Button>
      </Group>
    </form>
  );
}
