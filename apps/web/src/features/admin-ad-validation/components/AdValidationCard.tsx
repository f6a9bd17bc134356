import { useState } from 'react';
import { Alert, Anchor, Button, Card, Checkbox, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminAd } from '@helium/contracts';
import { AdMedia } from '../../ads-common/components/AdMedia.tsx';
import { ValidationIcon } from '../../ads-common/components/ValidationIcon.tsx';
import {
  hasPublisherCheckbox,
  initiallyChecked,
  isAdMediaReady,
  isPublisherRowDimmed,
} from '../utils/publisherRules.ts';

/** A dimmed publisher row: grey text on grey, still WCAG AA (an opacity would take it below). */
const DIMMED_ROW = { color: 'var(--mantine-color-dimmed)', backgroundColor: 'var(--mantine-color-gray-0)' } as const;

export type PublisherAction = 1 | 2 | 3;

const stateKey = (state: number) => `adminAdValidation.states.${state as 0 | 1 | 2 | 3}` as const;

/** One ad of the Admin: Ad Validation screen (spec 01: sections 2, 4, 5). */
export function AdValidationCard(props: {
  ad: TAdminAd;
  busy: boolean;
  onDecide: (isAccepted: boolean) => void;
  onPublishers: (publisherIds: number[], acceptance: PublisherAction) => void;
}) {
  const { ad, busy, onDecide, onPublishers } = props;
  const { t } = useTranslation();
  const [checked, setChecked] = useState<number[]>(() => initiallyChecked(ad));
  const mediaReady = isAdMediaReady(ad);
  const mediaUrl = ad.type === 'video' ? ad.mp4 : ad.image;
  const title = `#${ad.id}`;

  const confirmThen = (text: string, action: () => void) => {
    if (window.confirm(text)) action();
  };

  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={`${t('adminAdValidation.id')} ${ad.id}`}>
      <Group align="flex-start" gap="lg" wrap="wrap">
        <Stack gap={4} w={220}>
          <AdMedia
            type={ad.type}
            image={ad.image}
            mp4={ad.mp4}
            poster={ad.poster}
            preview={ad.preview}
            alt={title}
            maxHeight={160}
          />
          {mediaUrl ? (
            <Anchor href={mediaUrl} target="_blank" rel="noopener noreferrer" size="xs">
              {mediaUrl.split('/').pop()?.slice(0, 12)}…
            </Anchor>
          ) : null}
          {ad.link ? (
            <Anchor
              href={ad.link}
              target="_blank"
              rel="noopener noreferrer"
              size="xs"
              style={{ wordBreak: 'break-all' }}
            >
              {ad.link}
            </Anchor>
          ) : null}
        </Stack>
        <Stack gap="xs" style={{ flex: 1, minWidth: 280 }}>
          <Group gap="md">
            <Title order={2} size="h4">
              {t('adminAdValidation.id')} {ad.id}
            </Title>
            <Text fw={600}>{ad.advertiser.brand}</Text>
            <Text size="sm" c="dimmed">
              {t('adminAdValidation.format')} {ad.format_id}
            </Text>
          </Group>

          <Group gap="sm" data-testid="admin-validation-row">
            <ValidationIcon state={ad.adminsValidation} label={t(stateKey(ad.adminsValidation))} />
            <Text size="sm">
              {t('common.labelValue', { label: t('adminAdValidation.adminValidation') })}{' '}
              {t(stateKey(ad.adminsValidation))}
            </Text>
            {ad.adminsValidation === 3 ? (
              <Group gap="xs">
                <Button
                  size="xs"
                  color="green"
                  disabled={busy}
                  onClick={() => confirmThen(t('adminAdValidation.confirmApprove'), () => onDecide(true))}
                >
                  {t('adminAdValidation.approve')}
                </Button>
                <Button
                  size="xs"
                  color="red"
                  disabled={busy}
                  onClick={() => confirmThen(t('adminAdValidation.confirmReject'), () => onDecide(false))}
                >
                  {t('adminAdValidation.reject')}
                </Button>
              </Group>
            ) : null}
          </Group>
          {ad.adminsValidation === 0 ? (
            <Alert color="gray" variant="light">
              {t('adminAdValidation.mustBeRequested')}
            </Alert>
          ) : null}
          <Text size="sm" c={ad.is_emailed_as_validated ? 'green' : 'dimmed'}>
            {ad.is_emailed_as_validated ? t('adminAdValidation.emailed') : t('adminAdValidation.notEmailed')}
          </Text>
          {ad.type === 'video' && !mediaReady ? (
            <Text size="sm" c="orange">
              {t('adminAdValidation.mediaNotReady')}
            </Text>
          ) : null}

          <Table withTableBorder striped={false} verticalSpacing={4} aria-label={t('adminAdValidation.publishers')}>
            <Table.Tbody>
              {ad.publishers.map((publisher) => {
                const dimmed = isPublisherRowDimmed(ad, publisher);
                const withBox = hasPublisherCheckbox(ad, publisher);
                return (
                  <Table.Tr key={publisher.id} style={dimmed ? DIMMED_ROW : undefined} data-publisher-id={publisher.id}>
                    <Table.Td w={40}>
                      <ValidationIcon
                        state={publisher.adValidation}
                        label={t(stateKey(publisher.adValidation))}
                        yellow={withBox}
                      />
                    </Table.Td>
                    <Table.Td w={40}>
                      {withBox ? (
                        <Checkbox
                          aria-label={t('adminAdValidation.selectPublisher', { brand: publisher.brand })}
                          checked={checked.includes(publisher.id)}
                          onChange={(event) => {
                            const on = event.currentTarget.checked;
                            setChecked((old) =>
                              on ? [...old, publisher.id] : old.filter((id) => id !== publisher.id),
                            );
                          }}
                        />
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {publisher.brand}
                      {publisher.isInstalled ? '' : ` (${t('adminAdValidation.notInstalled')})`}
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" c="dimmed">
                        {publisher.expiresAtStr ? t('adminAdValidation.expires', { date: publisher.expiresAtStr }) : ''}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>

          {ad.adminsValidation === 1 && checked.length > 0 ? (
            <Group gap="xs">
              <Button
                size="xs"
                disabled={busy || !mediaReady}
                onClick={() => confirmThen(t('adminAdValidation.confirmRequest'), () => onPublishers(checked, 3))}
              >
                {t('adminAdValidation.request')}
              </Button>
              <Button
                size="xs"
                color="green"
                variant="light"
                disabled={busy || !mediaReady}
                onClick={() => confirmThen(t('adminAdValidation.confirmForceApprove'), () => onPublishers(checked, 1))}
              >
                {t('adminAdValidation.forceApprove')}
              </Button>
              <Button
                size="xs"
                color="red"
                variant="light"
                disabled={busy || !mediaReady}
                onClick={() => confirmThen(t('adminAdValidation.confirmForceDecline'), () => onPublishers(checked, 2))}
              >
                {t('adminAdValidation.forceDecline')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Group>
    </Card>
  );
}
