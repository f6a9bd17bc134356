import { useEffect, useState } from 'react';
import { Anchor, Divider, List, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NEWSLETTER_ISSUE_PLACEHOLDER, type TGetInstallationDataResponse } from '@helium/contracts';
import { apiPost } from '../../api/client.ts';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { useCurrentUser } from '../user/userQuery.ts';
import { CodeBlock } from './CodeBlock.tsx';
import { checkDurationMs, checkPhaseOver, instructionsVariant, progressPct, PROGRESS_TICK_MS } from './installCheck.ts';

/** Where the French instructions' WordPress plug-in is downloaded (carries the publisher's line of code). */
const WORDPRESS_PLUGIN_URL = '/api/publisher/wordpress-plugin.zip';

type Check = { phase: 'checking' | 'done'; pct: number };

/**
 * The check phase (specification 02, sections 2.9 and 4): check-install runs while a progress bar fills for
 * publisherInstallCheckTimout seconds (redrawn every 50 ms); the phase ends, and the instructions appear, once
 * the time is up and the check has answered (checkPhaseOver). What it answers is not shown: it only ends the
 * bar. A failed check is only logged.
 */
function useInstallCheck(data: TGetInstallationDataResponse | undefined): Check {
  const [check, setCheck] = useState<Check>({ phase: 'checking', pct: 0 });
  const durationMs = data ? checkDurationMs(data.publisherInstallCheckTimout) : null;
  const publisherId = data?.publisher.id;
  useEffect(() => {
    if (durationMs === null || publisherId === undefined) return;
    let answered = false;
    let full = false;
    const start = performance.now();
    setCheck({ phase: 'checking', pct: 0 });
    const tick = window.setInterval(() => {
      const elapsed = performance.now() - start;
      // The bar is drawn full for one redraw before the instructions replace it.
      if (full && checkPhaseOver(elapsed, durationMs, answered)) {
        window.clearInterval(tick);
        setCheck({ phase: 'done', pct: 100 });
        return;
      }
      const pct = progressPct(elapsed, durationMs);
      full = pct >= 100;
      setCheck({ phase: 'checking', pct });
    }, PROGRESS_TICK_MS);
    apiPost('/api/publisher/check-install')
      .catch((error: unknown) => console.error('check-install failed', error))
      .finally(() => (answered = true));
    return () => window.clearInterval(tick);
  }, [durationMs, publisherId]);
  return check;
}

/** Publisher Installation (specification 02, section 2.9). */
export function PublisherInstallationPage() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const { data, isPending, error } = useQuery({
    queryKey: ['publisher', 'installation', user.accountId],
    queryFn: () => apiPost('/api/publisher/get-installation-data'),
  });
  useEffect(() => {
    if (error) console.error('get-installation-data failed', error);
  }, [error]);
  const check = useInstallCheck(data);

  return (
    <>
      <PageHeader title={t('nav.installation')} />
      {isPending ? <DelayedLoader aria-label={t('common.loading')} /> : null}
      {data && check.phase === 'checking' ? (
        <Stack gap="xs" maw={560}>
          <Text>{t('installation.checking')}</Text>
          <Progress
            value={check.pct}
            size="lg"
            transitionDuration={0}
            aria-label={t('installation.progressLabel')}
            data-testid="install-check-progress"
          />
        </Stack>
      ) : null}
      {data && check.phase === 'done' ? (
        <Stack gap="lg" maw={860}>
          <WebInstructions data={data} variant={instructionsVariant(i18n.resolvedLanguage, data.publisher.id)} />
          {data.tutorialUrl ? <NewsletterInstructions data={data} tutorialUrl={data.tutorialUrl} /> : null}
        </Stack>
      ) : null}
    </>
  );
}

function WebInstructions({
  data,
  variant,
}: {
  data: TGetInstallationDataResponse;
  variant: ReturnType<typeof instructionsVariant>;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" data-testid="install-instructions" data-variant={variant}>
      <Title order={2} size="h3" mb="sm">
        {t('installation.webTitle')}
      </Title>
      {variant === 'frenchTwoOptions' ? (
        <Stack gap="md">
          <Text>{t('installation.twoOptions')}</Text>
          <Stack gap="xs">
            <Text fw={600}>{t('installation.option1')}</Text>
            <Text>{t('installation.lineIntro')}</Text>
            <CodeBlock code={data.lineOfCode1} />
          </Stack>
          <Divider />
          <Stack gap="xs">
            <Text fw={600}>{t('installation.option2')}</Text>
            <List type="ordered" spacing={4}>
              <List.Item>
                <Anchor href={WORDPRESS_PLUGIN_URL} download="helium-ads.zip">
                  {t('installation.pluginStep1')}
                </Anchor>
              </List.Item>
              <List.Item>{t('installation.pluginStep2')}</List.Item>
              <List.Item>{t('installation.pluginStep3')}</List.Item>
              <List.Item>{t('installation.pluginStep4')}</List.Item>
              <List.Item>{t('installation.pluginStep5')}</List.Item>
            </List>
          </Stack>
          <Text>{t('installation.adsStart')}</Text>
        </Stack>
      ) : variant === 'frenchCodeLine' ? (
        <Stack gap="xs">
          <Text>{t('installation.lineIntro')}</Text>
          <CodeBlock code={data.lineOfCode1} />
          <Text>{t('installation.adsStart')}</Text>
        </Stack>
      ) : (
        <Stack gap="xs">
          <Text>{t('installation.lineIntro')}</Text>
          <CodeBlock code={data.lineOfCode1} />
          <Text>{t('installation.wordpressTip')}</Text>
          <Text>{t('installation.contact')}</Text>
        </Stack>
      )}
    </Paper>
  );
}

function NewsletterInstructions({ data, tutorialUrl }: { data: TGetInstallationDataResponse; tutorialUrl: string }) {
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
