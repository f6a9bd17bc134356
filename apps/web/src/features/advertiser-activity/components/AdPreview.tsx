import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignAd } from '@helium/contracts';

export function AdPreview({ ad, dimmed }: { ad: TCampaignAd; dimmed: boolean }) {
  const { t } = useTranslation();
  const style = { maxWidth: 80, maxHeight: 54, display: 'block', opacity: dimmed ? 0.35 : 1 } as const;
  return (
    <Anchor href={ad.link ?? undefined} target="_blank" rel="noopener noreferrer" aria-label={t('activity.openAdLink')}>
      {ad.type === 'video' && ad.mp4 ? (
        <video
          src={ad.mp4}
          poster={ad.preview ?? ad.poster ?? undefined}
          autoPlay
          loop
          muted
          playsInline
          style={style}
        />
      ) : (
        <img src={ad.preview ?? ad.image ?? undefined} alt={t('activity.adPreview', { id: ad.id })} style={style} />
      )}
    </Anchor>
  );
}
