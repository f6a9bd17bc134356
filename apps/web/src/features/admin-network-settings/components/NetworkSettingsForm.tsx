import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TNetworkSettings, TNetworkSettingName, TUpdateNetworkSettingsRequest } from '@helium/contracts';
import { LATE_PAYMENT_ACTIONS } from '@helium/domain/pricing';
import { apiErrorMessage } from '../../../api/client.ts';
import {
  hasChanges,
  SETTING_GROUPS,
  settingsToSave,
  TEXT_SETTINGS,
  unitOf,
  WHOLE_SETTINGS,
  type SettingsDraft,
} from '../utils/settingsForm.ts';

/**
 * The settings in force, in groups, all editable; Save sends only the fields changed (a new row of the history).
 * The page says when it is saved (this form is drawn again from the new settings). The server's refusal (a share
 * above 100 %, a rate of 0...) is shown and nothing is changed.
 */
export function NetworkSettingsForm({
  settings,
  onSave,
}: {
  settings: TNetworkSettings;
  onSave: (request: TUpdateNetworkSettingsRequest) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<SettingsDraft>(() => ({ ...settings }));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const set = (field: TNetworkSettingName, value: string | number) => {
    setDraft((old) => ({ ...old, [field]: value }));
  };

  const save = async () => {
    const request = settingsToSave(settings, draft);
    setError(null);
    if (!hasChanges(request)) {
      setError(t('networkSettings.nothingChanged'));
      return;
    }
    setSaving(true);
    try {
      await onSave(request);
    } catch (caught) {
      console.error('update-network-settings failed', caught);
      setError(apiErrorMessage(caught) ?? t('common.error'));
    } finally {
      setSaving(false);
    }
  };

  const labelOf = (field: TNetworkSettingName) => {
    const unit = unitOf(field);
    const label = t(`networkSettings.fields.${field}`);
    return unit ? `${label} (${t(`networkSettings.units.${unit}`)})` : label;
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Stack gap="md">
        {SETTING_GROUPS.map((group) => (
          <Paper key={group.key} withBorder p="md" component="section" aria-labelledby={`settings-${group.key}`}>
            <Title order={2} size="h4" id={`settings-${group.key}`} mb="sm">
              {t(`networkSettings.groups.${group.key}`)}
            </Title>
            {group.key === 'rates' ? (
              <Alert color="gray" mb="sm" data-testid="rates-set-at">
                {t('networkSettings.ratesSetAt', { date: settings.ratesSetAtStr })}
              </Alert>
            ) : null}
            <SimpleGrid
              cols={{
                base: 1,
                sm: TEXT_SETTINGS.has(group.fields[0]!) ? 1 : 2,
                md: TEXT_SETTINGS.has(group.fields[0]!) ? 1 : 3,
              }}
            >
              {group.fields.map((field) =>
                field === 'latePaymentAction' ? (
                  <NativeSelect
                    key={field}
                    name={field}
                    label={labelOf(field)}
                    value={String(draft[field] ?? '')}
                    onChange={(event) => set(field, event.currentTarget.value)}
                    disabled={saving}
                    data={LATE_PAYMENT_ACTIONS.map((action) => ({
                      value: action,
                      label: t(`networkSettings.latePaymentActions.${action}`),
                    }))}
                  />
                ) : field === 'bitcoinAddress' ? (
                  <TextInput
                    key={field}
                    name={field}
                    label={labelOf(field)}
                    value={String(draft[field] ?? '')}
                    onChange={(event) => set(field, event.currentTarget.value)}
                    readOnly={saving}
                    spellCheck={false}
                    ff="monospace"
                  />
                ) : TEXT_SETTINGS.has(field) ? (
                  <Textarea
                    key={field}
                    name={field}
                    label={labelOf(field)}
                    value={String(draft[field] ?? '')}
                    onChange={(event) => set(field, event.currentTarget.value)}
                    readOnly={saving}
                    autosize
                    minRows={3}
                  />
                ) : (
                  <NumberInput
                    key={field}
                    name={field}
                    label={labelOf(field)}
                    value={draft[field] ?? ''}
                    onChange={(value) => set(field, value)}
                    readOnly={saving}
                    decimalScale={WHOLE_SETTINGS.has(field) ? 0 : field === 'usdToEur' ? 8 : 2}
                    allowDecimal={!WHOLE_SETTINGS.has(field)}
                    thousandSeparator=" "
                    hideControls
                  />
                ),
              )}
            </SimpleGrid>
          </Paper>
        ))}
        {error !== null ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={saving}>
            {t('networkSettings.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
