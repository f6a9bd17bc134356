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
import { TEXT_LIMITS, type TCreateAccountRequest, type TCreateAccountResponse } from '@helium/contracts';
import { ZCreateAccountRequestSchema } from '@helium/contracts/admin-network';
import { checkRequest } from '@helium/contracts/issues';
import { useFieldErrors } from '../../forms/hooks/useFieldErrors.ts';
import { lastPartField } from '../../forms/utils/issues.ts';
import {
  ACCOUNT_FIELDS,
  createRequest,
  EMPTY_ACCOUNT_FORM,
  type AccountField,
  type AccountForm,
} from '../utils/accountForm.ts';

const fieldOf = lastPartField<AccountField>(ACCOUNT_FIELDS);

/**
 * Create a publisher (website or newsletter) or an advertiser (with its first campaign), and its user when new.
 * The request is checked by its contract before it is sent; each refusal is shown beside its field.
 */
export function CreateAccountForm({
  onCreate,
}: {
  onCreate: (request: TCreateAccountRequest) => Promise<TCreateAccountResponse>;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState<AccountForm>(EMPTY_ACCOUNT_FORM);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const errors = useFieldErrors(fieldOf);
  const set = <K extends keyof AccountForm>(key: K, value: AccountForm[K]) => {
    setDone(null);
    if ((ACCOUNT_FIELDS as readonly string[]).includes(key)) errors.clear(key as AccountField);
    setForm((old) => ({ ...old, [key]: value }));
  };

  const submit = async () => {
    setDone(null);
    const request = createRequest(form);
    if (!errors.check(checkRequest(ZCreateAccountRequestSchema, request))) return;
    setSaving(true);
    try {
      const created = await onCreate(request);
      setDone(
        t(created.userCreated ? 'accounts.createdWithUser' : 'accounts.created', {
          brand: form.brand,
          email: form.email,
        }),
      );
      setForm({ ...EMPTY_ACCOUNT_FORM, kind: form.kind });
    } catch (caught) {
      console.error('create-account failed', caught);
      errors.refused(caught);
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
              error={errors.errorOf('brand', { value: form.brand, max: TEXT_LIMITS.brand })}
              required
            />
            <TextInput
              name="email"
              type="email"
              label={t('accounts.email')}
              value={form.email}
              onChange={(e) => set('email', e.currentTarget.value)}
              error={errors.errorOf('email', { value: form.email, max: TEXT_LIMITS.email })}
              required
            />
            <TextInput
              name="name"
              label={t('accounts.name')}
              value={form.name}
              onChange={(e) => set('name', e.currentTarget.value)}
              description={t('accounts.nameHint')}
              error={errors.errorOf('name', { value: form.name, max: TEXT_LIMITS.name })}
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
                  error={errors.errorOf('domain', { value: form.domain, max: TEXT_LIMITS.domain })}
                  required
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
                error={errors.errorOf('price')}
                required
                hideControls
              />
              <NumberInput
                name="trialCredits"
                label={t('accounts.trialCredits')}
                value={form.trialCredits}
                onChange={(value) => set('trialCredits', value)}
                error={errors.errorOf('trialCredits')}
                hideControls
              />
            </SimpleGrid>
          )}
          {errors.formError !== null ? (
            <Alert color="red" role="alert">
              {errors.formError}
            </Alert>
          ) : null}
          {done !== null ? (
            <Alert color="green" role="status">
              {done}
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={saving}>
              {t('accounts.createButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
