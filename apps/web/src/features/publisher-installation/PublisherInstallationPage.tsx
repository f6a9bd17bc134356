import { useEffect } from 'react';
import { Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiPost } from '../../api/client.ts';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { useCurrentUser } from '../user/hooks/useCurrentUser.ts';
import { InstallCheckResult } from './components/InstallCheckResult.tsx';
import { NewsletterInstructions } from './components/NewsletterInstructions.tsx';
import { WebInstructions } from './components/WebInstructions.tsx';
import { useInstallCheck } from './hooks/useInstallCheck.ts';
import { instructionsVariant } from './utils/installCheck.ts';
import { getInstallationDataCall } from '@helium/contracts';

/**
 * Publisher Installation (specification 02, section 2.9): the check's progress bar, then what it found
 * (docs/decisions.md, "Where the product departs from its specification") and the instructions.
 */
export function PublisherInstallationPage() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const { data, isPending, error } = useQuery({
    queryKey: ['publisher', 'installation', user.accountId],
    queryFn: () => apiPost(getInstallationDataCall),
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
          <InstallCheckResult result={check.result} data={data} onRecheck={check.recheck} />
          <WebInstructions data={data} variant={instructionsVariant(i18n.resolvedLanguage, data.publisher.id)} />
          {data.tutorialUrl ? <NewsletterInstructions data={data} tutorialUrl={data.tutorialUrl} /> : null}
        </Stack>
      ) : null}
    </>
  );
}
