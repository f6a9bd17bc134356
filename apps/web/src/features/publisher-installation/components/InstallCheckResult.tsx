import { Alert, Button, List, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TGetInstallationDataResponse } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import type { CheckResult } from '../hooks/useInstallCheck.ts';

export interface InstallCheckResultProps {
  result: CheckResult;
  data: TGetInstallationDataResponse;
  onRecheck: () => void;
}

/**
 * What the installation check found (issue 36; docs/decisions.md, "Where the product departs from its
 * specification"): installed, on which domain and when last seen; else not found, with what to check; else that it
 * could not be checked.
 */
export function InstallCheckResult({ result, data, onRecheck }: InstallCheckResultProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const again = (
    <Button variant="default" size="xs" onClick={onRecheck}>
      {t('installation.checkAgain')}
    </Button>
  );
  if ('unknown' in result) {
    return (
      <Alert color="gray" title={t('installation.unknownTitle')} data-testid="install-result" data-result="unknown">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('installation.unknown')}</Text>
          {again}
        </Stack>
      </Alert>
    );
  }
  const { isInstalled, domain, lastSeenAt } = result.found;
  const newsletter = data.tutorialUrl !== null;
  if (isInstalled) {
    return (
      <Alert
        color="green"
        title={domain ? t('installation.foundOn', { domain }) : t('installation.found')}
        data-testid="install-result"
        data-result="found"
      >
        <Text size="sm">{lastSeenAt ? t('installation.lastSeen', { when: format.dateTime(lastSeenAt) }) : null}</Text>
      </Alert>
    );
  }
  // A site is checked by its line of code, a newsletter by its banners (a publisher may have both).
  const site = domain !== null || !newsletter;
  return (
    <Alert
      color="yellow"
      title={domain ? t('installation.notFoundOn', { domain }) : t('installation.notFound')}
      data-testid="install-result"
      data-result="notFound"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('installation.whatToCheck')}</Text>
        <List size="sm" spacing={4} data-testid="install-checklist">
          {site ? (
            <>
              <List.Item>{t('installation.checkHead')}</List.Item>
              <List.Item>{t('installation.checkPublisherId', { id: String(data.publisher.id) })}</List.Item>
              {domain ? <List.Item>{t('installation.checkDomain', { domain })}</List.Item> : null}
              <List.Item>{t('installation.checkVisited')}</List.Item>
              <List.Item>{t('installation.checkAdBlocker')}</List.Item>
            </>
          ) : null}
          {newsletter ? <List.Item>{t('installation.checkNewsletter')}</List.Item> : null}
        </List>
        {again}
      </Stack>
    </Alert>
  );
}
