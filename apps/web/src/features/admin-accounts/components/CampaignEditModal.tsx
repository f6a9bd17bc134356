import { useState } from 'react';
import { Alert, Button, Divider, Group, Modal, NumberInput, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  type TAdminCampaign,
  type TGrantCampaignCreditsRequest,
  type TUpdateAdvertiserCampaignRequest,
} from '@helium/contracts';
import {
  ZGrantCampaignCreditsRequestSchema,
  ZUpdateAdvertiserCampaignRequestSchema,
} from '@helium/contracts/admin-network';
import type { FieldOf } from '../../forms/utils/issues.ts';
import { typedNumber } from '../../forms/utils/typedNumber.ts';
import { CampaignTargetingDialog } from '../../location-selector/components/CampaignTargetingDialog.tsx';
import { useModalAction } from '../hooks/useModalAction.ts';

const FLAGS = [
  'isTrial',
  'canBuyInBtc',
  'canBillToPay',
  'isAutoPilotVisible',
  'canActivateAdsByPublisher',
  'canBudget',
  'doNotDiscount',
] as const;
type Flag = (typeof FLAGS)[number];

/** The price is the call's `cpm` or `cpc` (the campaign's model); the credits its grant's `quantity`. */
const fieldOf: FieldOf<'price' | 'credits'> = (path) =>
  path === 'cpm' || path === 'cpc' ? 'price' : path === 'quantity' ? 'credits' : null;

/** Edit a campaign's price and flags (spec 02 section 3), its places, and grant it trial credits (a ledger entry). */
export function CampaignEditModal({
  brand,
  campaign,
  onClose,
  onSave,
  onGrant,
}: {
  brand: string;
  campaign: TAdminCampaign;
  onClose: () => void;
  onSave: (request: TUpdateAdvertiserCampaignRequest) => Promise<unknown>;
  onGrant: (request: TGrantCampaignCreditsRequest) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [price, setPrice] = useState<number | string>(campaign.isCpc ? campaign.cpc : campaign.cpm);
  const [flags, setFlags] = useState<Record<Flag, boolean>>(
    () => Object.fromEntries(FLAGS.map((flag) => [flag, campaign[flag]])) as Record<Flag, boolean>,
  );
  const [credits, setCredits] = useState<number | string>('');
  const { errors, busy, run } = useModalAction(onClose, fieldOf);
  const [targeting, setTargeting] = useState(false);
  const priceNumber = typedNumber(price) as number;

  return (
    <Modal opened onClose={onClose} title={t('accounts.editCampaign', { brand, id: campaign.id })} size="lg">
      <Stack gap="sm">
        <NumberInput
          name="price"
          label={campaign.isCpc ? t('accounts.cpc') : t('accounts.cpm')}
          value={price}
          onChange={(value) => {
            errors.clear('price');
            setPrice(value);
          }}
          error={errors.errorOf('price')}
          required
          hideControls
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {FLAGS.map((flag) => (
            <Switch
              key={flag}
              name={flag}
              label={t(`accounts.flags.${flag}`)}
              checked={flags[flag]}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setFlags((old) => ({ ...old, [flag]: checked }));
              }}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button
            loading={busy}
            onClick={() =>
              void run(
                'update-advertiser-campaign',
                ZUpdateAdvertiserCampaignRequestSchema,
                {
                  campaignId: campaign.id,
                  ...(campaign.isCpc ? { cpc: priceNumber } : { cpm: priceNumber }),
                  ...flags,
                },
                onSave,
              )
            }
          >
            {t('settings.save')}
          </Button>
        </Group>
        <Divider />
        <Group gap="sm" justify="space-between" wrap="wrap">
          <Text size="sm" data-testid="targeting-summary">
            <b>{t('targeting.label')}</b> {campaign.geolocationStr || t('targeting.everywhere')}
          </Text>
          <Button size="xs" variant="default" onClick={() => setTargeting(true)}>
            {t('targeting.action')}
          </Button>
        </Group>
        <CampaignTargetingDialog
          opened={targeting}
          onClose={() => setTargeting(false)}
          geolocation={campaign.geolocation}
          onSave={async (geolocation) => {
            await onSave({ campaignId: campaign.id, geolocation });
            onClose();
          }}
        />
        <Divider />
        <Text size="sm">
          {t(campaign.isCpc ? 'accounts.remainingClicks' : 'accounts.remainingImpressions', {
            count: campaign.isCpc ? campaign.remainingClicks : campaign.remainingImpressions,
          })}
        </Text>
        <Group align="flex-end">
          <NumberInput
            name="trialCredits"
            label={t(campaign.isCpc ? 'accounts.grantClicks' : 'accounts.grantImpressions')}
            value={credits}
            onChange={(value) => {
              errors.clear('credits');
              setCredits(value);
            }}
            error={errors.errorOf('credits')}
            hideControls
          />
          <Button
            variant="default"
            loading={busy}
            onClick={() =>
              void run(
                'grant-campaign-credits',
                ZGrantCampaignCreditsRequestSchema,
                { campaignId: campaign.id, kind: 'trial', quantity: typedNumber(credits) as number },
                onGrant,
              )
            }
          >
            {t('accounts.grantTrial')}
          </Button>
        </Group>
        {errors.formError !== null ? (
          <Alert color="red" role="alert">
            {errors.formError}
          </Alert>
        ) : null}
      </Stack>
    </Modal>
  );
}
