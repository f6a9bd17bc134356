import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateCampaignGeolocationCall, type TCampaignEx } from '@helium/contracts';
import { CampaignTargetingDialog } from '../../location-selector/components/CampaignTargetingDialog.tsx';
import { useCampaignAction } from '../hooks/useCampaignAction.ts';

/** The campaign's places in one line ("France, Belgium: Brussels", or everywhere) and its Targeting action. */
export function CampaignTargeting({ campaign }: { campaign: TCampaignEx }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const update = useCampaignAction(updateCampaignGeolocationCall);
  return (
    <Group gap="sm" wrap="wrap">
      <Text size="sm" data-testid="targeting-summary">
        <b>{t('targeting.label')}</b> {campaign.geolocationStr || t('targeting.everywhere')}
      </Text>
      <Button size="xs" variant="light" onClick={() => setOpen(true)}>
        {t('targeting.action')}
      </Button>
      <CampaignTargetingDialog
        opened={open}
        onClose={() => setOpen(false)}
        geolocation={campaign.geolocation}
        onSave={(geolocation) => update.mutateAsync({ campaignId: campaign.id, geolocation })}
      />
    </Group>
  );
}
