import { Fragment, useCallback, useState } from 'react';
import { Alert, Box, Button, FileButton, Flex, Group, Stack, Text, useMantineTheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TGetAdsResponse } from '@helium/contracts';
import { adFileWarnings } from '@helium/domain/ads';
import { apiPost, apiUpload } from '../../api/client.ts';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { useCurrentUser } from '../user/hooks/useCurrentUser.ts';
import { AdCard } from './components/AdCard.tsx';
import { AdPreview } from './components/AdPreview.tsx';
import { FormatHelp } from './components/FormatHelp.tsx';
import { ADS_QUERY_KEY, useAds } from './hooks/useAds.ts';
import { requestToValidateAdCall, updateOrDeleteAdCall, uploadFileCall } from '@helium/contracts';

const ACCEPT = '.jpg,.jpeg,.png,.mp4,image/jpeg,image/png,video/mp4';

/** Advertiser Ads (spec 02, sections 2.3, 4, 5, 7, 8). */
export function AdvertiserAdsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const { data, isPending } = useAds();
  const [uploading, setUploading] = useState(false);
  const [working, setWorking] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [tips, setTips] = useState<string[]>([]);
  const [previewId, setPreviewId] = useState<number | null>(null);
  const busy = uploading || working;
  const ads = data?.ads ?? [];
  const previewed = ads.find((ad) => ad.id === previewId) ?? null;
  // Beside the list from the md breakpoint; on a narrower screen right under its ad, where it was asked for.
  const theme = useMantineTheme();
  const previewBeside = useMediaQuery(`(min-width: ${theme.breakpoints.md})`);
  const previewPanel = previewed ? (
    <AdPreview key={previewed.id} ad={previewed} onClose={() => setPreviewId(null)} />
  ) : null;

  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: ADS_QUERY_KEY }), [queryClient]);

  async function onFile(file: File | null) {
    if (!file) return;
    const warnings = adFileWarnings(file);
    if (warnings.length > 0) {
      window.alert(warnings.map((key) => t(`advertiserAds.${key}`)).join('\n'));
      return;
    }
    setUploading(true);
    setErrors([]);
    setTips([]);
    try {
      const answer = await apiUpload(uploadFileCall, file);
      setErrors(answer.errors);
      setTips(answer.tips);
      if (answer.errors.length === 0 && answer.adId !== null) {
        await reload();
        setPreviewId(answer.adId);
      }
    } catch (error) {
      console.error('upload-file failed', error);
      setErrors([t('advertiserAds.uploadFailed')]);
    } finally {
      setUploading(false);
    }
  }

  const saveLink = useCallback(
    async (id: number, link: string) => {
      await apiPost(updateOrDeleteAdCall, { action: 'update', ad: { id, link } });
      queryClient.setQueryData<TGetAdsResponse>(ADS_QUERY_KEY, (old) =>
        old ? { ads: old.ads.map((ad) => (ad.id === id ? { ...ad, link: link === '' ? null : link } : ad)) } : old,
      );
    },
    [queryClient],
  );

  async function run(call: () => Promise<unknown>) {
    setWorking(true);
    try {
      await call();
      await reload();
    } catch (error) {
      console.error('ad action failed', error);
    } finally {
      setWorking(false);
    }
  }

  function onDelete(id: number) {
    if (!window.confirm(t('advertiserAds.deleteConfirm'))) return;
    if (previewId === id) setPreviewId(null);
    void run(() => apiPost(updateOrDeleteAdCall, { action: 'delete', ad: { id } }));
  }

  function onSubmit(id: number) {
    const ad = queryClient.getQueryData<TGetAdsResponse>(ADS_QUERY_KEY)?.ads.find((item) => item.id === id);
    if (!ad?.link) {
      window.alert(t('advertiserAds.redirectLinkNeededWarning'));
      return;
    }
    if (!window.confirm(t('advertiserAds.submitConfirm'))) return;
    void run(() => apiPost(requestToValidateAdCall, { adId: id }));
  }

  return (
    <>
      <PageHeader title={t('nav.ads')} />
      {user.locale === 'fr' ? <FormatHelp /> : null}
      {user.cannot_add_ads ? null : (
        <Group mb="md" gap="sm">
          <FileButton onChange={(file) => void onFile(file)} accept={ACCEPT} disabled={busy}>
            {(props) => (
              <Button {...props} loading={uploading} disabled={busy}>
                {uploading ? t('advertiserAds.uploading') : t('advertiserAds.upload')}
              </Button>
            )}
          </FileButton>
          <Text size="sm" c="dimmed">
            {t('advertiserAds.uploadHint')}
          </Text>
        </Group>
      )}
      {errors.map((message) => (
        <Alert key={message} color="red" variant="filled" title={t('advertiserAds.errorTitle')} mb="sm" role="alert">
          {message}
        </Alert>
      ))}
      {tips.map((message) => (
        <Alert key={message} color="yellow" variant="light" title={t('advertiserAds.suggestionTitle')} mb="sm">
          {message}
        </Alert>
      ))}
      {isPending ? (
        <DelayedLoader aria-label={t('common.loading')} />
      ) : (
        <Flex gap="md" align="flex-start" direction={{ base: 'column', md: 'row' }}>
          <Box style={{ flex: 7, minWidth: 0 }} w="100%">
            <Stack gap="md">
              {ads.length === 0 ? <Text c="dimmed">{t('advertiserAds.empty')}</Text> : null}
              {ads.map((ad) => (
                <Fragment key={ad.id}>
                  <AdCard
                    ad={ad}
                    busy={busy}
                    selected={ad.id === previewId}
                    onPreview={() => setPreviewId(ad.id)}
                    onSaveLink={(link) => saveLink(ad.id, link)}
                    onDelete={() => onDelete(ad.id)}
                    onSubmit={() => onSubmit(ad.id)}
                  />
                  {!previewBeside && ad.id === previewId ? previewPanel : null}
                </Fragment>
              ))}
            </Stack>
          </Box>
          {previewBeside && previewPanel ? (
            <Box style={{ flex: 5, minWidth: 0, position: 'sticky', top: 16 }} w="100%">
              {previewPanel}
            </Box>
          ) : null}
        </Flex>
      )}
    </>
  );
}
