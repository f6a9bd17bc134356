import { Box } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TStatsDay } from '@helium/contracts';
import { AdMedia } from '../../ads-common/components/AdMedia.tsx';

type StatsAd = TStatsDay['owlAds'][number]['ad'];

/** A small picture of the ad: its image, or its mp4 playing muted in a loop. */
export function AdThumbnail({ ad }: { ad: StatsAd }) {
  const { t } = useTranslation();
  return (
    <Box w={96} maw={96}>
      <AdMedia
        type={ad.type}
        image={ad.image}
        mp4={ad.mp4}
        poster={ad.poster}
        preview={ad.preview}
        alt={t('publisherStats.adAlt', { id: ad.id })}
        maxHeight={56}
      />
    </Box>
  );
}
