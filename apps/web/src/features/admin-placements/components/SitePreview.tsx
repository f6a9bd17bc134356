import { useEffect, useState } from 'react';
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { sitePreviewUrl } from '../utils/placementForm.ts';

/** How long the frame may take to load before the screen says the site may refuse framing. */
const LOAD_WAIT_MS = 8000;

/**
 * The publisher's home page in a frame, to find the elements to place ads in. Many sites refuse to be framed
 * (X-Frame-Options, CSP frame-ancestors) and a browser does not tell the framing page: the screen says so
 * beside the frame, and again when nothing has loaded after a while, with a link to open the site in a tab.
 */
export function SitePreview({ domain }: { domain: string | null }) {
  const { t } = useTranslation();
  const url = sitePreviewUrl(domain);
  const [loaded, setLoaded] = useState(false);
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    setLoaded(false);
    setSlow(false);
    const timer = setTimeout(() => setSlow(true), LOAD_WAIT_MS);
    return () => clearTimeout(timer);
  }, [url]);
  if (!url) return <Text c="dimmed">{t('placements.noDomain')}</Text>;
  return (
    <Stack gap="xs">
      <Text size="sm">
        {t('placements.previewNote')}{' '}
        <Anchor href={url} target="_blank" rel="noopener noreferrer">
          {t('placements.openSite', { url })}
        </Anchor>
      </Text>
      {slow && !loaded ? (
        <Alert color="yellow" role="status">
          {t('placements.previewRefused')}
        </Alert>
      ) : null}
      <iframe
        key={url}
        src={url}
        title={t('placements.previewTitle', { domain })}
        sandbox="allow-scripts allow-same-origin"
        referrerPolicy="no-referrer"
        loading="lazy"
        onLoad={() => setLoaded(true)}
        style={{ width: '100%', height: 480, border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4 }}
      />
    </Stack>
  );
}
