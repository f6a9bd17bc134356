import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TGetPlacementsResponse, TPlacementFields } from '@helium/contracts';
import { MAX_PLACEMENTS } from '@helium/contracts';
import { apiErrorMessage } from '../../../api/client.ts';
import { draftsOf, firstMissingSelector, newDraft, requestOf, type PlacementDraft } from '../utils/placementForm.ts';
import { PlacementFields } from './PlacementFields.tsx';

type Outcome = { kind: 'saved' } | { kind: 'error'; message: string } | null;

/**
 * A publisher's placements as a list to edit and save at once (update-placements replaces the list). Deleting
 * asks first, then saves the list without it. An empty list gives the publisher the default placement.
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
  const [outcome, setOutcome] = useState<Outcome>(null);

  const saveList = async (list: PlacementDraft[]) => {
    const missing = firstMissingSelector(list);
    if (missing !== null) {
      setOutcome({ kind: 'error', message: t('placements.selectorMissing', { n: missing }) });
      return;
    }
    setSaving(true);
    setOutcome(null);
    try {
      await onSave(requestOf(list));
      setDrafts(list);
      setOutcome({ kind: 'saved' });
    } catch (error) {
      setOutcome({ kind: 'error', message: apiErrorMessage(error) ?? t('common.error') });
    } finally {
      setSaving(false);
    }
  };

  const remove = (index: number) => {
    if (!window.confirm(t('placements.deleteConfirm', { n: index + 1 }))) return;
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
          onChange={(changed) => {
            setOutcome(null);
            setDrafts((list) => list.map((item, at) => (at === index ? changed : item)));
          }}
          onDelete={() => remove(index)}
        />
      ))}
      {outcome?.kind === 'saved' ? (
        <Alert color="green" role="status">
          {t('placements.saved')}
        </Alert>
      ) : null}
      {outcome?.kind === 'error' ? (
        <Alert color="red" role="alert" title={t('placements.notSaved')}>
          {outcome.message}
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
