import { Center } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DelayedLoader } from './DelayedLoader.tsx';

export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" role="status" aria-label={t('common.loading')}>
      <DelayedLoader />
    </Center>
  );
}
