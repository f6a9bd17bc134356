import { Button, CopyButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Copies a text to the clipboard, and says "Copied" for two seconds. `label` names what it copies where a screen
 * has several (its accessible name then; the visible text stays "Copy").
 */
export function CopyTextButton({ value, label, testId }: { value: string; label?: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Button
          size="xs"
          variant={copied ? 'filled' : 'light'}
          color={copied ? 'teal' : undefined}
          onClick={copy}
          aria-label={label && !copied ? label : undefined}
          data-testid={testId}
        >
          {copied ? t('common.copied') : t('common.copy')}
        </Button>
      )}
    </CopyButton>
  );
}
