import { Button, Card, Checkbox, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PLACEMENT_DEVICES, PLACEMENT_POSITIONS, WEB_FORMAT_IDS } from '@helium/contracts';
import type { PlacementDraft } from '../utils/placementForm.ts';
import { browserAcceptsSelector } from '../utils/selectorCheck.ts';

/** One placement's fields: where (selector or the default slot, position), which formats, which devices. */
export function PlacementFields({
  draft,
  number,
  error,
  onChange,
  onDelete,
}: {
  draft: PlacementDraft;
  /** 1-based, as the server's messages name placements. */
  number: number;
  /** Why its selector was refused (by the contract or the server), in the user's language. */
  error?: string;
  onChange: (draft: PlacementDraft) => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const selector = draft.selector.trim();
  const selectorError =
    !draft.isDefault && selector !== '' && !browserAcceptsSelector(selector) ? t('placements.selectorInvalid') : null;
  return (
    <Card withBorder padding="md" data-testid="placement" aria-labelledby={`placement-${draft.key}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Text fw={700} id={`placement-${draft.key}`}>
            {t('placements.placementTitle', { n: number })}
          </Text>
          <Button
            variant="subtle"
            color="red"
            size="compact-sm"
            onClick={onDelete}
            aria-label={t('placements.deleteLabel', { n: number })}
          >
            {t('placements.delete')}
          </Button>
        </Group>
        <Checkbox
          label={t('placements.defaultSlot')}
          description={t('placements.defaultSlotHelp')}
          checked={draft.isDefault}
          onChange={(event) => onChange({ ...draft, isDefault: event.currentTarget.checked })}
        />
        {draft.isDefault ? null : (
          <TextInput
            label={t('placements.selector')}
            description={t('placements.selectorHelp')}
            placeholder="#sidebar .ad-slot"
            value={draft.selector}
            error={error ?? selectorError}
            onChange={(event) => onChange({ ...draft, selector: event.currentTarget.value })}
            styles={{ input: { fontFamily: 'monospace' } }}
            required
          />
        )}
        <Group grow wrap="wrap" align="flex-start">
          <NativeSelect
            label={t('placements.position')}
            value={draft.position}
            data={PLACEMENT_POSITIONS.map((value) => ({ value, label: t(`placements.positions.${value}`) }))}
            onChange={(event) =>
              onChange({ ...draft, position: event.currentTarget.value as PlacementDraft['position'] })
            }
            miw={160}
          />
          <NativeSelect
            label={t('placements.device')}
            value={draft.device}
            data={PLACEMENT_DEVICES.map((value) => ({ value, label: t(`placements.devices.${value}`) }))}
            onChange={(event) => onChange({ ...draft, device: event.currentTarget.value as PlacementDraft['device'] })}
            miw={160}
          />
        </Group>
        <Checkbox.Group
          label={t('placements.formats')}
          description={t('placements.formatsHelp')}
          value={draft.formatIds.map(String)}
          onChange={(values) => onChange({ ...draft, formatIds: values.map(Number) })}
        >
          <Group gap="md" mt={4} wrap="wrap">
            {WEB_FORMAT_IDS.map((id) => (
              <Checkbox key={id} value={String(id)} label={t(`advertiserAds.formats.${id}`)} />
            ))}
          </Group>
        </Checkbox.Group>
      </Stack>
    </Card>
  );
}
