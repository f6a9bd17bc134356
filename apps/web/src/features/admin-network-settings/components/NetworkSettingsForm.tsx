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
import { decimalPlaces } from '@helium/domain/decimals';
import { useFormat } from '../../format/hooks/useFormat.ts';
import {
  hasChanges,
  SETTING_GROUPS,
  settingsErrors,
  settingsToSave,
  TEXT_SETTINGS,
  unitOf,
  WHOLE_SETTINGS,
  type SettingError,
  type SettingsDraft,
  type SettingsErrors,
} from '../utils/settingsForm.ts';

/**
 * The settings in force, in groups, all editable; Save sends only the fields changed (a new row of the history).
 * The page says when it is saved (this form is drawn again from the new settings). The server's refusal (a share
 * above 100 %, a rate with more decimals than stored or out of its range...) is shown beside each field at fault,
 * and nothing is changed.
 */
export function NetworkSettingsForm({
  settings,
  onSave,
}: {
  settings: TNetworkSettings;
  onSave: (request: TUpdateNetworkSettingsRequest) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [draft, setDraft] = useState<SettingsDraft>(() => ({ ...settings }));
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<SettingsErrors>({});

  const set = (field: TNetworkSettingName, value: string | number) => {
    setDraft((old) => ({ ...old, [field]: value }));
    setErrors(({ [field]: _fixed, ...others }) => others);
  };

  const save = async () => {
    const request = settingsToSave(settings, draft);
    setErrors({});
    if (!hasChanges(request)) {
      setErrors({ form: { text: t('networkSettings.nothingChanged') } });
      return;
    }
    setSaving(true);
    try {
      await onSave(request);
    } catch (caught) {
      console.error('update-network-settings failed', caught);
      setErrors(settingsErrors(caught, settings, request));
    } finally {
      setSaving(false);
    }
  };

  /** A refusal in the admin's language, its numbers formatted as the screen shows them. */
  const errorText = (error: SettingError | undefined): string | undefined => {
    if (!error) return undefined;
    if ('text' in error) return error.text;
    const shown = (value: number | undefined) =>
      value === undefined ? '' : format.number(value, decimalPlaces(value));
    const { decimals, min, max } = error.values ?? {};
    return t(`networkSettings.errors.${error.key}`, { decimals: shown(decimals), min: shown(min), max: shown(max) });
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
                    error={errorText(errors[field])}
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
                    error={errorText(errors[field])}
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
                    error={errorText(errors[field])}
                    value={draft[field] ?? ''}
                    onChange={(value) => set(field, value)}
                    readOnly={saving}
                    // No decimals dropped while typing: a value with more than are stored is refused beside it.
                    allowDecimal={!WHOLE_SETTINGS.has(field)}
                    thousandSeparator=" "
                    hideControls
                  />
                ),
              )}
            </SimpleGrid>
          </Paper>
        ))}
        {errors.form ? (
          <Alert color="red" role="alert">
            {errorText(errors.form)}
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
