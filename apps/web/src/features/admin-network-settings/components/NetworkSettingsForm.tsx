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
import {
  TEXT_LIMITS,
  type TNetworkSettings,
  type TNetworkSettingName,
  type TUpdateNetworkSettingsRequest,
} from '@helium/contracts';
import { ZUpdateNetworkSettingsRequestSchema } from '@helium/contracts/admin-network';
import { checkRequest } from '@helium/contracts/issues';
import { LATE_PAYMENT_ACTIONS } from '@helium/domain/pricing';
import { useFieldErrors } from '../../forms/hooks/useFieldErrors.ts';
import {
  acrossFieldsIssue,
  hasChanges,
  SETTING_GROUPS,
  settingsFieldOf,
  settingsToSave,
  TEXT_SETTINGS,
  unitOf,
  type SettingsDraft,
} from '../utils/settingsForm.ts';

/**
 * The settings in force, in groups, all editable; Save sends only the fields changed (a new row of the history).
 * The page says when it is saved (this form is drawn again from the new settings). What the contract or a rule
 * across fields refuses (a share above 100 %, a rate with more decimals than stored or out of its range, an
 * emptied field, a text over its length) is shown beside each field at fault before anything is sent, as is the
 * server's own refusal, and nothing is changed.
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
  const errors = useFieldErrors(settingsFieldOf);

  const set = (field: TNetworkSettingName, value: string | number) => {
    setDraft((old) => ({ ...old, [field]: value }));
    errors.clear(field);
  };

  const save = async () => {
    const request = settingsToSave(settings, draft);
    if (!hasChanges(request)) {
      errors.setFormError({ text: t('networkSettings.nothingChanged') });
      return;
    }
    if (!errors.check(checkRequest(ZUpdateNetworkSettingsRequestSchema, request))) return;
    const across = acrossFieldsIssue(settings, request);
    if (across) {
      errors.setErrors({ fields: { [across.path as TNetworkSettingName]: across } });
      return;
    }
    setSaving(true);
    try {
      await onSave(request);
    } catch (caught) {
      console.error('update-network-settings failed', caught);
      errors.refused(caught, { settingsChanged: t('networkSettings.changedMeanwhile') });
    } finally {
      setSaving(false);
    }
  };

  /** A text setting's message: its refusal, or its length over the limit as it is typed. */
  const textError = (field: TNetworkSettingName) =>
    errors.errorOf(field, {
      value: String(draft[field] ?? ''),
      max: field === 'bitcoinAddress' ? TEXT_LIMITS.bitcoinAddress : TEXT_LIMITS.invoiceDetails,
    });

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
                    error={textError(field)}
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
                    error={textError(field)}
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
                    error={errors.errorOf(field)}
                    value={draft[field] ?? ''}
                    onChange={(value) => set(field, value)}
                    readOnly={saving}
                    // Nothing dropped while typing (decimals, a sign): a value the rule refuses is said beside it.
                    thousandSeparator=" "
                    hideControls
                  />
                ),
              )}
            </SimpleGrid>
          </Paper>
        ))}
        {errors.formError !== null ? (
          <Alert color="red" role="alert">
            {errors.formError}
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
