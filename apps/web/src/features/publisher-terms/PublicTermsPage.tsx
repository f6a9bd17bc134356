import { useState } from 'react';
import { useLocation } from 'react-router';
import { Container, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Logo, PRODUCT_NAME } from '../../app/shell/Logo.tsx';
import { usePageLanguage } from '../../app/usePageLanguage.ts';
import { TermsText } from './components/TermsText.tsx';
import { publicTermsLang, TERMS_LANGS, termsOf, type TermsLang } from './utils/termsLanguage.ts';

/**
 * The terms of use for anyone, signed in or not (the sign-in's agreement step links here): in the language the link
 * or the browser asks for, with a French / English switch.
 */
export function PublicTermsPage() {
  const { search } = useLocation();
  const [lang, setLang] = useState<TermsLang>(() =>
    publicTermsLang(search, typeof navigator === 'undefined' ? [] : navigator.languages),
  );
  const { t } = useTranslation(undefined, { lng: lang });
  usePageLanguage(lang);
  useDocumentTitle(`${t('nav.terms')} · ${PRODUCT_NAME}`);
  return (
    <Container component="main" size="md" py="lg" px="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Logo />
          <SegmentedControl
            aria-label={t('terms.language')}
            value={lang}
            onChange={(value) => setLang(value as TermsLang)}
            data={TERMS_LANGS.map((value) => ({ value, label: t(`language.${value}`, { lng: value }) }))}
          />
        </Group>
        <Title order={1}>{t('nav.terms')}</Title>
        <Text size="sm" c="dimmed">
          {t('terms.intro')}
        </Text>
        <TermsText terms={termsOf(lang)} />
      </Stack>
    </Container>
  );
}
