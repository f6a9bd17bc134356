import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CopyTextButton } from '../../../app/CopyTextButton.tsx';

/** The token just created, shown this once: its value, a copy button and the warning that it will not come back. */
export function NewApiToken({ name, token, onDone }: { name: string; token: string; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={t('apiTokens.newTitle', { name })} data-testid="api-token-new" role="status">
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          {t('apiTokens.newWarning')}
        </Text>
        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="api-token-value">
          {token}
        </Code>
        <Group gap="sm">
          <CopyTextButton value={token} label={t('apiTokens.copyLabel')} testId="api-token-copy" />
          <Button size="xs" variant="default" onClick={onDone} data-testid="api-token-done">
            {t('apiTokens.done')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
