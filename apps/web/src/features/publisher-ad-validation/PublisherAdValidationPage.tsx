import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert, Button, Center, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TGetAdValidationResponse } from '@helium/contracts';
import { apiPost, isApiError } from '../../api/client.ts';
import { queryClient as appQueryClient } from '../../app/queryClient.ts';
import { Logo, PRODUCT_NAME } from '../../app/shell/Logo.tsx';
import { usePageLanguage } from '../../app/usePageLanguage.ts';
import { AdMedia } from '../ads-common/components/AdMedia.tsx';
import { Loading } from './components/Loading.tsx';
import { PUBLISHER_AD_VALIDATION_TEXTS as T } from './utils/publisherAdValidationTexts.ts';
import { getAdValidationCall, updateAdValidationCall } from '@helium/contracts';

/** A public screen (no shell): its server data with the app's one query client. */
export function PublisherAdValidationPage() {
  return (
    <QueryClientProvider client={appQueryClient}>
      <PublisherAdValidation />
    </QueryClientProvider>
  );
}

/**
 * Public, French-only page reached from the link mailed to publishers (spec 01: Publisher ad-validation
 * page): the ad linked to its target, and the choice 1 (shown) or 2 (not shown), saved on click while
 * the server says it can still change.
 */
function PublisherAdValidation() {
  usePageLanguage('fr');
  useDocumentTitle(`${T.title} · ${PRODUCT_NAME}`);
  const { hashid = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const queryKey = ['publisher-ad-validation', hashid];
  const { data, error, isPending } = useQuery({
    queryKey,
    queryFn: () => apiPost(getAdValidationCall, { hashId: hashid }),
    enabled: hashid !== '',
    retry: false,
  });
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [saveFailed, setSaveFailed] = useState(false);
  /** The choice just clicked, shown at once while it is being saved. */
  const [clicked, setClicked] = useState<1 | 2 | null>(null);

  async function choose(acceptance: 1 | 2) {
    if (!data?.canValidate || saving) return;
    setClicked(acceptance);
    setSaving(true);
    setSaveFailed(false);
    try {
      await apiPost(updateAdValidationCall, { hashId: hashid, acceptance });
      queryClient.setQueryData<TGetAdValidationResponse>(queryKey, { ...data, acceptance });
      setSaved(true);
    } catch (failure) {
      console.error('update-ad-validation failed', failure);
      setSaveFailed(true);
      setClicked(null);
      await queryClient.invalidateQueries({ queryKey });
    } finally {
      setSaving(false);
    }
  }

  const invalid = hashid === '' || isApiError(error, 404) || isApiError(error, 422);
  let body;
  if (invalid) {
    body = (
      <Alert color="red" variant="light" role="alert">
        {T.invalidLink}
      </Alert>
    );
  } else if (error) {
    body = (
      <Alert color="red" variant="light" role="alert">
        {T.loadFailed}
      </Alert>
    );
  } else if (isPending || !data) {
    body = <Loading />;
  } else {
    const current = clicked ?? data.acceptance;
    const value = current === 1 || current === 2 ? String(current) : null;
    body = (
      <Stack gap="md">
        <Text>{T.intro(data.advertiser.brand)}</Text>
        <Center>
          <AdMedia
            type={data.ad.type}
            image={data.ad.image}
            mp4={data.ad.mp4}
            poster={data.ad.poster}
            href={data.ad.link}
            alt={T.adLabel}
            maxHeight={360}
          />
        </Center>
        {data.canValidate ? (
          <>
            <Radio.Group
              label={T.question(data.publisher.brand)}
              value={value}
              onChange={(next) => void choose(next === '2' ? 2 : 1)}
            >
              <Stack gap="xs" mt="xs">
                <Radio value="1" label={T.accept} disabled={saving} />
                <Radio value="2" label={T.decline} disabled={saving} />
              </Stack>
            </Radio.Group>
            {data.acceptance === 3 && !saved ? (
              <Text size="sm" c="dimmed">
                {T.pendingHint}
              </Text>
            ) : null}
          </>
        ) : (
          <Alert color={data.acceptance === 2 ? 'gray' : 'green'} variant="light" role="status">
            {data.acceptance === 2 ? T.declinedLocked : T.activeLocked}
          </Alert>
        )}
        {saveFailed ? (
          <Alert color="red" variant="light" role="alert">
            {T.saveFailed}
          </Alert>
        ) : null}
        {saved ? (
          <Stack gap="sm">
            <Alert color="green" variant="light" role="status">
              {T.saved}
            </Alert>
            <Button onClick={() => void navigate('/')}>{T.backToDashboard}</Button>
          </Stack>
        ) : null}
      </Stack>
    );
  }

  return (
    <Center component="main" mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" radius="md" p="xl" maw={620} w="100%">
        <Stack gap="md">
          <Logo />
          <Title order={1} size="h2">
            {T.title}
          </Title>
          {body}
        </Stack>
      </Paper>
    </Center>
  );
}
