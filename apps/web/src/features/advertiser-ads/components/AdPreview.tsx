import { useState } from 'react';
import { Alert, Box, CloseButton, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdvertiserAd } from '@helium/contracts';
import { isMobileCompatible } from '@helium/domain/ads';
import { AdMedia } from '../../ads-common/components/AdMedia.tsx';
import { FakeText } from './FakeText.tsx';

/** The preview side panel: the ad on a publisher's page, as on a computer or a phone. */
export function AdPreview({ ad, onClose }: { ad: TAdvertiserAd; onClose: () => void }) {
  const { t } = useTranslation();
  const [view, setView] = useState<'desktop' | 'mobile'>('desktop');
  const title = t('advertiserAds.adTitle', { id: ad.id });
  const media = (
    <AdMedia
      type={ad.type}
      image={ad.image}
      mp4={ad.mp4}
      poster={ad.poster}
      href={ad.link}
      alt={title}
      maxHeight={400}
    />
  );
  return (
    <Paper withBorder radius="md" p="md" component="aside" aria-label={t('advertiserAds.preview')}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('advertiserAds.preview')} · {title}
        </Title>
        <CloseButton onClick={onClose} aria-label={t('advertiserAds.closePreview')} />
      </Group>
      <SegmentedControl
        fullWidth
        mb="sm"
        value={view}
        onChange={(value) => setView(value === 'mobile' ? 'mobile' : 'desktop')}
        data={[
          { value: 'desktop', label: t('advertiserAds.desktop') },
          { value: 'mobile', label: t('advertiserAds.mobile') },
        ]}
      />
      <Text size="xs" c="dimmed" mb={6}>
        {t('advertiserAds.previewPage')}
      </Text>
      {view === 'desktop' ? (
        <Paper withBorder p="md" bg="gray.0" data-testid="preview-desktop">
          <Group align="flex-start" wrap="nowrap" gap="md">
            <Box style={{ flex: 2 }}>
              <FakeText lines={10} />
            </Box>
            <Box style={{ flex: 1, minWidth: 120 }}>{media}</Box>
          </Group>
        </Paper>
      ) : (
        <Paper withBorder p="sm" bg="gray.0" maw={320} mx="auto" radius="lg" data-testid="preview-mobile">
          <Stack gap="sm">
            <FakeText lines={4} />
            {isMobileCompatible(ad.format_id) ? (
              media
            ) : (
              <Alert color="yellow" variant="light" role="status">
                {t('advertiserAds.incompatibleMediaFormat')}
              </Alert>
            )}
            <FakeText lines={4} />
          </Stack>
        </Paper>
      )}
    </Paper>
  );
}
