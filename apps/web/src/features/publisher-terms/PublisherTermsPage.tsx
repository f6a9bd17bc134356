import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../app/PageHeader.tsx';
import { useCurrentUser } from '../user/hooks/useCurrentUser.ts';
import { TermsText } from './components/TermsText.tsx';
import { termsOf } from './utils/termsLanguage.ts';

/** The publisher terms of use, in the user's language (specification 02, section 2.10). */
export function PublisherTermsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <>
      <PageHeader title={t('nav.terms')} />
      <Stack gap="sm" maw={900}>
        <Text size="sm" c="dimmed">
          {t('terms.intro')}
        </Text>
        <TermsText terms={termsOf(user.locale)} />
      </Stack>
    </>
  );
}
