import { useState } from 'react';
import { NumberInput, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type TCreateCampaignRequest } from '@helium/contracts';
import { ZCreateCampaignRequestSchema } from '@helium/contracts/admin-network';
import { topLevelField } from '../../forms/utils/issues.ts';
import { typedNumber } from '../../forms/utils/typedNumber.ts';
import { useModalAction } from '../hooks/useModalAction.ts';
import { ModalForm } from './ModalForm.tsx';

const fieldOf = topLevelField(['price'] as const);

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
  const { errors, busy, run } = useModalAction(onClose, fieldOf);
  return (
    <ModalForm
      title={t('accounts.newCampaignOf', { brand: advertiser.brand })}
      error={errors.formError}
      busy={busy}
      onClose={onClose}
      onSubmit={() =>
        void run(
          'create-campaign',
          ZCreateCampaignRequestSchema,
          { advertiserId: advertiser.id, isCpc: pricing === 'cpc', isOwl, price: typedNumber(price) as number },
          onCreate,
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
        onChange={(value) => {
          errors.clear('price');
          setPrice(value);
        }}
        error={errors.errorOf('price')}
        required
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
