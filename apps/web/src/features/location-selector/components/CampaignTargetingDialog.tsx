import { Alert, Button, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { locationSummary, type CompactLocation } from '@helium/domain/locations';
import { errorText } from '../hooks/useLocationTree.ts';
import { LocationSelector, type LocationSelectorHandle } from './LocationSelector.tsx';

export interface CampaignTargetingDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The campaign's geotargeting now: location ids, none for everywhere. */
  geolocation: readonly string[];
  /** Saves the chosen ids (none = everywhere) with the call of the screen; a rejection is shown in the dialog. */
  onSave: (geolocation: string[], selection: CompactLocation[]) => Promise<unknown>;
  /** The list's address, for a screen that has its own; default /api/locations. */
  endpoint?: string;
}

/**
 * A campaign's Targeting dialog: the location selector preset to the campaign's places, saved by the screen's call
 * (the advertiser's update-campaign-geolocation, or an admin's campaign editor). Closes once saved.
 */
export function CampaignTargetingDialog({
  opened,
  onClose,
  geolocation,
  onSave,
  endpoint,
}: CampaignTargetingDialogProps) {
  const { t } = useTranslation();
  const selector = useRef<LocationSelectorHandle>(null);
  const [selection, setSelection] = useState<CompactLocation[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setSelection(null);
    setError(null);
    onClose();
  };
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      // Saved before the list was there: the places are unchanged.
      await onSave(selection ? selection.map((item) => item.id) : [...geolocation], selection ?? []);
      close();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setSaving(false);
    }
  };

  const summary = selection ? locationSummary(selection) : null;
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('targeting.title')}
      size="lg"
      scrollAreaComponent={ScrollArea.Autosize}
    >
      <Stack gap="sm" data-testid="campaign-targeting-dialog">
        <Text size="sm" c="dimmed">
          {t('targeting.hint')}
        </Text>
        {summary !== null ? (
          <Text size="sm" data-testid="targeting-draft-summary">
            <b>{t('targeting.label')}</b> {summary || t('targeting.everywhere')}
          </Text>
        ) : null}
        <LocationSelector
          ref={selector}
          endpoint={endpoint}
          initialSelections={geolocation}
          onSelectionChange={setSelection}
        />
        {error ? (
          <Alert color="red" role="alert">
            {t('targeting.saveFailed', { message: error })}
          </Alert>
        ) : null}
        <Group justify="space-between" wrap="wrap">
          <Button variant="subtle" onClick={() => selector.current?.clearSelections()}>
            {t('targeting.clear')}
          </Button>
          <Group gap="sm">
            <Button variant="default" onClick={close}>
              {t('targeting.cancel')}
            </Button>
            <Button onClick={() => void save()} loading={saving}>
              {t('targeting.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
