import { Code, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CopyTextButton } from '../../../app/CopyTextButton.tsx';

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
        {/* Several blocks on one screen: each button says which code it copies. */}
        <CopyTextButton value={code} label={label ? t('installation.copyNamed', { label }) : undefined} />
      </Group>
    </Stack>
  );
}
