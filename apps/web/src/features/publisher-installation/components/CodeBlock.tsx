import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A code snippet to paste, with its copy button. */
export function CodeBlock({ code, label }: { code: string; label?: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      {label ? (
        <Text fw={600} size="sm">
          {label}
        </Text>
      ) : null}
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="code-block">
        {code}
      </Code>
      <Group justify="flex-end">
        <CopyButton value={code} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              size="xs"
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'teal' : undefined}
              onClick={copy}
              // Several blocks on one screen: each button says which code it copies.
              aria-label={label && !copied ? t('installation.copyNamed', { label }) : undefined}
            >
              {copied ? t('installation.copied') : t('installation.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
