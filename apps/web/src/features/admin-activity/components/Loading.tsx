import { Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSpinnerDelay } from '../../../app/DelayedLoader.tsx';

/** Shown once loading has lasted 1 s (specification 02, section 9), so a quick answer shows nothing. */
export function Loading() {
  const { t } = useTranslation();
  const shown = useSpinnerDelay();
  if (!shown) return null;
  return (
    <Group>
      <Loader size="sm" aria-label={t('common.loading')} />
      <Text>{t('common.loading')}</Text>
    </Group>
  );
}
