import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminActivityPublisher } from '@helium/contracts';
import { DisplayBlock } from './DisplayBlock.tsx';
import classes from './AdminActivity.module.css';

export function PublisherSections({ publishers }: { publishers: TAdminActivityPublisher[] }) {
  const { t } = useTranslation();
  if (publishers.length === 0) return <Text c="dimmed">{t('adminActivity.noPublishers')}</Text>;
  return (
    <Stack>
      <Group className={classes.anchors} py="xs" gap="md" aria-label={t('adminActivity.publishers')} component="nav">
        {publishers.map((publisher) => (
          <Anchor key={publisher.id} href={`#publisher-${publisher.id}`} size="sm">
            {publisher.brand}
          </Anchor>
        ))}
      </Group>
      {publishers.map((publisher) => (
        <Paper key={publisher.id} withBorder p="md" id={`publisher-${publisher.id}`} component="section">
          <Title order={2} size="h4" mb="sm">
            {publisher.brand} (#{publisher.id})
          </Title>
          <Stack gap="lg">
            {publisher.displayData.map((data) => (
              <DisplayBlock key={data.display} publisher={publisher} data={data} />
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
