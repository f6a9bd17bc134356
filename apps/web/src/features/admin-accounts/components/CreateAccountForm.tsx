import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCreateAccountRequest, TCreateAccountResponse } from '@helium/contracts';
import { apiErrorMessage } from '../../../api/client.ts';
import { createRequest, EMPTY_ACCOUNT_FORM, type AccountForm } from '../utils/accountForm.ts';

/** Create a publisher (website or newsletter) or an advertiser (with its first campaign), and its user when new. */
export function CreateAccountForm({
  onCreate,
}: {
  onCreate: (request: TCreateAccountRequest) => Promise<TCreateAccountResponse>;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState<AccountForm>(EMPTY_ACCOUNT_FORM);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const set = <K extends keyof AccountForm>(key: K, value: AccountForm[K]) => {
    setDone(null);
    setForm((old) => ({ ...old, [key]: value }));
  };

  const submit = async () => {
    setError(null);
    setSaving(true);
    try {
      const created = await onCreate(createRequest(form));
      setDone(
        t(created.userCreated ? 'accounts.createdWithUser' : 'accounts.created', {
          brand: form.brand,
          email: form.email,
        }),
      );
      setForm({ ...EMPTY_ACCOUNT_FORM, kind: form.kind });
    } catch (caught) {
      console.error('create-account failed', caught);
      setError(apiErrorMessage(caught) ?? t('common.error'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="create-account">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4" id="create-account">
            {t('accounts.create')}
          </Title>
          <SegmentedControl
            value={form.kind}
            onChange={(value) => set('kind', value as AccountForm['kind'])}
            data={[
              { value: 'publisher', label: t('accounts.publisher') },
              { value: 'advertiser', label: t('accounts.advertiser') },
            ]}
            aria-label={t('accounts.kind')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              name="brand"
              label={t('accounts.brand')}
              value={form.brand}
              onChange={(e) => set('brand', e.currentTarget.value)}
              required
            />
            <TextInput
              name="email"
              type="email"
              label={t('accounts.email')}
              value={form.email}
              onChange={(e) => set('email', e.currentTarget.value)}
              required
            />
            <TextInput
              name="name"
              label={t('accounts.name')}
              value={form.name}
              onChange={(e) => set('name', e.currentTarget.value)}
              description={t('accounts.nameHint')}
              required
            />
            <Select
              name="locale"
              label={t('accounts.locale')}
              value={form.locale}
              onChange={(value) => set('locale', (value ?? 'en') as AccountForm['locale'])}
              data={[
                { value: 'en', label: 'English' },
                { value: 'fr', label: 'Français' },
              ]}
              allowDeselect={false}
            />
          </SimpleGrid>
          {form.kind === 'publisher' ? (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <SegmentedControl
                value={form.medium}
                onChange={(value) => set('medium', value as AccountForm['medium'])}
                data={[
                  { value: 'web', label: t('accounts.website') },
                  { value: 'newsletter', label: t('accounts.newsletter') },
                ]}
                aria-label={t('accounts.medium')}
              />
              {form.medium === 'web' ? (
                <TextInput
                  name="domain"
                  label={t('accounts.domain')}
                  placeholder="example.com"
                  value={form.domain}
                  onChange={(e) => set('domain', e.currentTarget.value)}
                />
              ) : null}
            </SimpleGrid>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Select
                name="pricing"
                label={t('accounts.pricing')}
                value={form.pricing}
                onChange={(value) => set('pricing', (value ?? 'cpm') as AccountForm['pricing'])}
                data={[
                  { value: 'cpm', label: 'CPM' },
                  { value: 'cpc', label: 'CPC' },
                ]}
                allowDeselect={false}
              />
              <NumberInput
                name="price"
                label={t('accounts.price')}
                value={form.price}
                onChange={(value) => set('price', value)}
                decimalScale={2}
                min={0}
                hideControls
              />
              <NumberInput
                name="trialCredits"
                label={t('accounts.trialCredits')}
                value={form.trialCredits}
                onChange={(value) => set('trialCredits', value)}
                allowDecimal={false}
                min={0}
                hideControls
              />
            </SimpleGrid>
          )}
          {error !== null ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          {done !== null ? (
            <Alert color="green" role="status">
              {done}
            </Alert>
          ) : null}
          <Group>
            <Button
              type="submit"
              loading={saving}
              disabled={!form.brand.trim() || !form.email.trim() || !form.name.trim()}
            >
              {t('accounts.createButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
