import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEXT_LIMITS } from '@helium/contracts';
import { useFieldErrors } from '../../forms/hooks/useFieldErrors.ts';
import type { FieldOf } from '../../forms/utils/issues.ts';
import { billingAddressToSave } from '../utils/settings.ts';

const fieldOf: FieldOf<'address'> = (path) => (path === 'data.address' ? 'address' : null);

/**
 * The billing information (section 2.4): read mode with Modify; edit mode with Save and Cancel. An empty address
 * is refused here (errorAddress), and one over its length as it is typed (issue 36, point 8: refused, never cut),
 * and nothing is saved; Cancel reads the settings again. The address shown wraps however long its words.
 */
export function BillingInformationCard({
  address,
  onSave,
  onReload,
}: {
  address: string;
  onSave: (address: string) => Promise<unknown>;
  onReload: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(address);
  const errors = useFieldErrors(fieldOf);
  const [saving, setSaving] = useState(false);
  const lengthError = errors.errorOf('address', { value: draft, max: TEXT_LIMITS.billingAddress });

  const modify = () => {
    setDraft(address);
    errors.setFormError(null);
    setEditing(true);
  };
  const cancel = () => {
    setEditing(false);
    errors.setFormError(null);
    void onReload();
  };
  const save = async () => {
    const toSave = billingAddressToSave(draft);
    if (toSave === null) {
      errors.setErrors({ fields: { address: { text: t('advertiserSetting.errorAddress') } } });
      return;
    }
    if (lengthError) return;
    setSaving(true);
    try {
      await onSave(toSave);
      setEditing(false);
    } catch (caught) {
      console.error('save-settings failed', caught);
      errors.refused(caught);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="billing-information-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="billing-information-title">
          {t('advertiserSetting.billingInformation')}
        </Title>
        {editing ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            <Stack gap="sm">
              <Textarea
                label={t('advertiserSetting.address')}
                value={draft}
                onChange={(event) => {
                  errors.clear('address');
                  setDraft(event.currentTarget.value);
                }}
                error={lengthError ?? errors.formError}
                autosize
                minRows={4}
                maxRows={16}
                data-autofocus
                autoFocus
              />
              <Group gap="sm">
                <Button type="submit" loading={saving}>
                  {t('advertiserSetting.save')}
                </Button>
                <Button variant="default" onClick={cancel} disabled={saving}>
                  {t('advertiserSetting.cancel')}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <>
            {address.trim() === '' ? (
              <Alert color="yellow" data-testid="billing-address-empty">
                {t('advertiserSetting.noAddress')}
              </Alert>
            ) : (
              <Text className="user-text" style={{ whiteSpace: 'pre-line' }} data-testid="billing-address">
                {address}
              </Text>
            )}
            <Group>
              <Button variant="default" onClick={modify}>
                {t('advertiserSetting.modify')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
