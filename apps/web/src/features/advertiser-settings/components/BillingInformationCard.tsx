import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../../api/client.ts';
import { billingAddressToSave } from '../utils/settings.ts';

/**
 * The billing information (section 2.4): read mode with Modify; edit mode with Save and Cancel. An empty address
 * is refused here (errorAddress) and nothing is saved; Cancel reads the settings again.
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
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const modify = () => {
    setDraft(address);
    setError(null);
    setEditing(true);
  };
  const cancel = () => {
    setEditing(false);
    setError(null);
    void onReload();
  };
  const save = async () => {
    const toSave = billingAddressToSave(draft);
    if (toSave === null) {
      setError(t('advertiserSetting.errorAddress'));
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onSave(toSave);
      setEditing(false);
    } catch (caught) {
      setError(apiErrorMessage(caught) ?? t('common.error'));
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
                onChange={(event) => setDraft(event.currentTarget.value)}
                error={error}
                autosize
                minRows={4}
                maxLength={2000}
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
              <Text style={{ whiteSpace: 'pre-line' }} data-testid="billing-address">
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
