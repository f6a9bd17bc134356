import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

const INSTALLATION_PATH = '/publisher/installation';

/** Without history: wait for data when installed, else install the script first. */
export function NoPerformance({ isInstalled }: { isInstalled: boolean }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" maw={640} data-testid="performance-empty" data-installed={isInstalled}>
      <Title order={2} size="h4" mb="xs">
        {t('performance.noPerformance')}
      </Title>
      {isInstalled ? (
        <Text>{t('performance.awaitData')}</Text>
      ) : (
        <Stack gap="xs">
          <Text>{t('performance.installFirst')}</Text>
          <Anchor component={Link} to={INSTALLATION_PATH}>
            {t('performance.installLink')}
          </Anchor>
        </Stack>
      )}
    </Paper>
  );
}
