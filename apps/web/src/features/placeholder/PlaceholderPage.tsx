import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../app/PageHeader.tsx';
import type { NavKey } from '../../app/routes.ts';

/** A routed page whose screen is not built yet. */
export function PlaceholderPage({ titleKey }: { titleKey: NavKey }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(titleKey)} />
      <Alert color="gray" variant="light" role="status">
        {t('common.notAvailableYet')}
      </Alert>
    </>
  );
}
