import { useState } from 'react';
import { NumberInput, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCreateCampaignRequest } from '@helium/contracts';
import { useModalAction } from '../hooks/useModalAction.ts';
import { ModalForm } from './ModalForm.tsx';

/** Another campaign for an advertiser: CPM or CPC at a price, for websites or newsletters. */
export function NewCampaignModal({
  advertiser,
  onClose,
  onCreate,
}: {
  advertiser: { id: number; brand: string };
  onClose: () => void;
  onCreate: (request: TCreateCampaignRequest) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [pricing, setPricing] = useState<'cpm' | 'cpc'>('cpm');
  const [price, setPrice] = useState<number | string>(2.5);
  const [isOwl, setIsOwl] = useState(false);
  const { error, busy, run } = useModalAction(onClose);
  return (
    <ModalForm
      title={t('accounts.newCampaignOf', { brand: advertiser.brand })}
      error={error}
      busy={busy}
      onClose={onClose}
      onSubmit={() =>
        void run('create-campaign', () =>
          onCreate({
            advertiserId: advertiser.id,
            isCpc: pricing === 'cpc',
            isOwl,
            price: typeof price === 'number' ? price : Number(price.replace(',', '.')),
          }),
        )
      }
    >
      <Stack gap={4}>
        <Text size="sm" fw={500} id="new-campaign-pricing">
          {t('accounts.pricing')}
        </Text>
        <SegmentedControl
          aria-labelledby="new-campaign-pricing"
          value={pricing}
          onChange={(value) => setPricing(value as 'cpm' | 'cpc')}
          data={[
            { value: 'cpm', label: 'CPM' },
            { value: 'cpc', label: 'CPC' },
          ]}
        />
      </Stack>
      <NumberInput
        name="price"
        label={pricing === 'cpc' ? t('accounts.cpc') : t('accounts.cpm')}
        value={price}
        onChange={setPrice}
        decimalScale={2}
        min={0}
        hideControls
      />
      <Switch
        name="isOwl"
        label={t('accounts.newsletterCampaign')}
        checked={isOwl}
        onChange={(event) => setIsOwl(event.currentTarget.checked)}
      />
    </ModalForm>
  );
}
