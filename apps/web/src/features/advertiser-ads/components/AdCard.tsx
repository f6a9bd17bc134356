import { Alert, Button, Card, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdvertiserAd } from '@helium/contracts';
import { advertiserAdRights } from '@helium/domain/ads';
import { AdMedia } from '../../ads-common/components/AdMedia.tsx';
import { formatKey } from '../utils/formatKey.ts';
import { AdLinkField } from './AdLinkField.tsx';
import { ValidationSteps } from './ValidationSteps.tsx';

/** One ad on the Ads screen: media (opens the preview), steps, link, actions and the state's message. */
export function AdCard(props: {
  ad: TAdvertiserAd;
  busy: boolean;
  selected: boolean;
  onPreview: () => void;
  onSaveLink: (link: string) => Promise<void>;
  onDelete: () => void;
  onSubmit: () => void;
}) {
  const { ad, busy, selected, onPreview, onSaveLink, onDelete, onSubmit } = props;
  const { t } = useTranslation();
  const rights = advertiserAdRights(ad.validation, Boolean(ad.link));
  const title = t('advertiserAds.adTitle', { id: ad.id });
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      component="article"
      aria-label={title}
      data-ad-id={ad.id}
      style={selected ? { borderColor: 'var(--mantine-color-blue-5)' } : undefined}
    >
      <Group align="flex-start" gap="md">
        <UnstyledButton onClick={onPreview} aria-label={t('advertiserAds.openPreview', { id: ad.id })} w={160}>
          <AdMedia
            type={ad.type}
            image={ad.image}
            mp4={ad.mp4}
            poster={ad.poster}
            preview={ad.preview}
            alt={title}
            maxHeight={120}
          />
        </UnstyledButton>
        {/* Beside the media when there is room for both, under it on a phone. */}
        <Stack gap="xs" style={{ flex: '1 1 260px', minWidth: 0 }}>
          <Group justify="space-between" gap="xs">
            <Title order={2} size="h4">
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {t(ad.type === 'video' ? 'advertiserAds.video' : 'advertiserAds.image')} ·{' '}
              {t('advertiserAds.format', { format: t(formatKey(ad.format_id)) })}
              {ad.width && ad.height ? ` · ${ad.width} × ${ad.height}` : ''}
            </Text>
          </Group>
          <ValidationSteps validation={ad.validation} />
          <AdLinkField adId={ad.id} link={ad.link} locked={!rights.canEditLink} disabled={busy} onSave={onSaveLink} />
          {ad.validation === 3 && ad.expiresAtStr ? (
            <Alert color="orange" variant="light" role="status">
              {t('advertiserAds.pending', { date: ad.expiresAtStr })}
            </Alert>
          ) : null}
          {ad.validation === 1 ? (
            <Alert color="green" variant="light" role="status">
              {t('advertiserAds.validated')}
            </Alert>
          ) : null}
          {ad.validation === 2 ? (
            <Alert color="red" variant="light" role="status">
              {t('advertiserAds.declined')}
            </Alert>
          ) : null}
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={onPreview} disabled={busy}>
              {t('advertiserAds.preview')}
            </Button>
            {ad.validation === 0 ? (
              <Button size="xs" onClick={onSubmit} disabled={busy}>
                {t('advertiserAds.submit')}
              </Button>
            ) : null}
            {rights.canDelete ? (
              <Button size="xs" color="red" variant="light" onClick={onDelete} disabled={busy}>
                {t('advertiserAds.delete')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}
