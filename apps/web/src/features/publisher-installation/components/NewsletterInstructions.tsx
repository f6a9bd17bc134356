import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NEWSLETTER_ISSUE_PLACEHOLDER, type TGetInstallationDataResponse } from '@helium/contracts';
import { CodeBlock } from './CodeBlock.tsx';

/** The newsletter's banners to paste, with the video tutorial for French publishers. */
export function NewsletterInstructions({
  data,
  tutorialUrl,
}: {
  data: TGetInstallationDataResponse;
  tutorialUrl: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Paper withBorder p="md" data-testid="newsletter-instructions">
      <Title order={2} size="h3" mb="sm">
        {t('installation.newsletterTitle')}
      </Title>
      <Stack gap="md">
        <Text>{t('installation.newsletterIntro')}</Text>
        {data.owlHtmlBanner1 ? <CodeBlock label={t('installation.topBanner')} code={data.owlHtmlBanner1} /> : null}
        {data.owlHtmlBanner2 ? <CodeBlock label={t('installation.bottomBanner')} code={data.owlHtmlBanner2} /> : null}
        <Text size="sm" c="dimmed">
          {t('installation.issuePlaceholder', { placeholder: NEWSLETTER_ISSUE_PLACEHOLDER })}
        </Text>
        {i18n.resolvedLanguage === 'fr' ? (
          <Anchor href={tutorialUrl} target="_blank" rel="noopener noreferrer">
            {t('installation.tutorial', { minutes: data.tutorialMinutes ?? 0 })}
          </Anchor>
        ) : null}
      </Stack>
    </Paper>
  );
}
