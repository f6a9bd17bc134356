import { useEffect } from 'react';
import { Alert, Anchor, Center, Paper, Stack, Title } from '@mantine/core';
import { Link, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';

/** Shown when a loader or a page throws something other than a redirect. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" maw={480} w="100%">
        <Stack>
          <Title order={1} size="h2">
            {t('common.error')}
          </Title>
          <Alert color="red" variant="light">
            {error instanceof Error ? error.message : t('common.error')}
          </Alert>
          <Anchor component={Link} to="/">
            {t('common.backHome')}
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
