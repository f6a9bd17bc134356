import { Box } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../app/PageHeader.tsx';
import { ApiTokensSection } from './components/ApiTokensSection.tsx';

/** The admin's API tokens, opened from the user menu (advertisers and publishers have them on Settings). */
export function ApiTokensPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('apiTokens.title')} />
      <Box maw={960}>
        <ApiTokensSection />
      </Box>
    </>
  );
}
