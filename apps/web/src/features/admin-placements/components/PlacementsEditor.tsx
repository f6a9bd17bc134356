import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MAX_PLACEMENTS, TEXT_LIMITS, type TGetPlacementsResponse, type TPlacementFields } from '@helium/contracts';
import { ZUpdatePlacementsRequestSchema } from '@helium/contracts/placements';
import { checkRequest } from '@helium/contracts/issues';
import { useFieldErrors } from '../../forms/hooks/useFieldErrors.ts';
import { draftsOf, newDraft, placementFieldOf, requestOf, type PlacementDraft } from '../utils/placementForm.ts';
import { PlacementFields } from './PlacementFields.tsx';

/**
 * A publisher's placements as a list to edit and save at once (update-placements replaces the list). Deleting
 * asks first, then saves the list without it. An empty list gives the publisher the default placement. What the
 * contract or the server refuses (a missing or too long selector, one that does not parse) is said beside the
 * selector of its placement.
 */
export function PlacementsEditor({
  data,
  onSave,
}: {
  data: TGetPlacementsResponse;
  onSave: (placements: TPlacementFields[]) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [drafts, setDrafts] = useState<PlacementDraft[]>(() => draftsOf(data.placements));
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const errors = useFieldErrors(placementFieldOf);

  const saveList = async (list: PlacementDraft[]) => {
    setSaved(false);
    const placements = requestOf(list);
    if (!errors.check(checkRequest(ZUpdatePlacementsRequestSchema, { publisherId: data.publisher.id, placements })))
      return;
    setSaving(true);
    try {
      await onSave(placements);
      setDrafts(list);
      setSaved(true);
    } catch (error) {
      console.error('update-placements failed', error);
      errors.refused(error);
    } finally {
      setSaving(false);
    }
  };

  const remove = (index: number) => {
    if (!window.confirm(t('placements.deleteConfirm', { n: index + 1 }))) return;
    // The errors shown were of the placements' old numbers.
    errors.setFormError(null);
    void saveList(drafts.filter((_, at) => at !== index));
  };

  return (
    <Stack gap="md">
      {drafts.length === 0 ? <Alert color="blue">{t('placements.usingDefault')}</Alert> : null}
      {drafts.map((draft, index) => (
        <PlacementFields
          key={draft.key}
          draft={draft}
          number={index + 1}
          error={errors.errorOf(
            String(index),
            draft.isDefault ? undefined : { value: draft.selector, max: TEXT_LIMITS.cssSelector },
          )}
          onChange={(changed) => {
            setSaved(false);
            errors.clear(String(index));
            setDrafts((list) => list.map((item, at) => (at === index ? changed : item)));
          }}
          onDelete={() => remove(index)}
        />
      ))}
      {saved ? (
        <Alert color="green" role="status">
          {t('placements.saved')}
        </Alert>
      ) : null}
      {errors.formError !== null ? (
        <Alert color="red" role="alert" title={t('placements.notSaved')}>
          {errors.formError}
        </Alert>
      ) : null}
      <Group wrap="wrap">
        <Button
          variant="default"
          disabled={drafts.length >= MAX_PLACEMENTS}
          onClick={() => setDrafts((list) => [...list, newDraft()])}
        >
          {t('placements.add')}
        </Button>
        <Button loading={saving} onClick={() => void saveList(drafts)}>
          {t('placements.save')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('placements.takesEffect')}
      </Text>
    </Stack>
  );
}
