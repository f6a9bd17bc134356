import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DelayedLoader } from './DelayedLoader.tsx';

/**
 * A screen's server data as every screen shows it: the content once the data is there, the error alert when the
 * call failed (spec 02, section 8: failed calls are logged; the screen says so), else the delayed loader.
 */
export function QueryContent<T>({
  data,
  isError,
  children,
}: {
  data: T | undefined;
  isError: boolean;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (data !== undefined && data !== null) return <>{children(data)}</>;
  if (isError) {
    return (
      <Alert color="red" role="alert">
        {t('common.error')}
      </Alert>
    );
  }
  return <DelayedLoader aria-label={t('common.loading')} />;
}
