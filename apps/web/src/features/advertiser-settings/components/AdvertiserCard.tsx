import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdvertiserSettings } from '@helium/contracts';

/** Who the advertiser is: name, type and since when. */
export function AdvertiserCard({ advertiser }: { advertiser: TAdvertiserSettings['advertiser'] }) {
  const { t } = useTranslation();
  const fields = [
    { label: t('advertiserSetting.name'), value: advertiser.brand, testId: 'advertiser-name' },
    { label: t('advertiserSetting.type'), value: t('role.advertiser'), testId: 'advertiser-type' },
    { label: t('advertiserSetting.since'), value: advertiser.createdAtStr, testId: 'advertiser-since' },
  ];
  return (
    <Paper withBorder p="md">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        {fields.map((field) => (
          <Stack key={field.testId} gap={2}>
            <Text size="sm" c="dimmed">
              {field.label}
            </Text>
            <Text fw={600} data-testid={field.testId}>
              {field.value}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
