import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminPublisher, TUpdatePublisherRequest } from '@helium/contracts';
import { PAYOUT_METHODS, type PayoutMethod } from '@helium/domain/payouts';
import { apiErrorMessage } from '../../../api/client.ts';
import { domainOf, orNull } from '../utils/accountForm.ts';

/** Edit a publisher: brand, domain, revenue share and minimum balance (empty = the network's), payout methods, sales rep. */
export function PublisherEditModal({
  publisher,
  onClose,
  onSave,
}: {
  publisher: TAdminPublisher;
  onClose: () => void;
  onSave: (request: TUpdatePublisherRequest) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [brand, setBrand] = useState(publisher.brand);
  const [domain, setDomain] = useState(publisher.domain ?? '');
  const [share, setShare] = useState<number | string>(publisher.revenueSharePct ?? '');
  const [minimum, setMinimum] = useState<number | string>(publisher.minBalanceForPayout ?? '');
  const [methods, setMethods] = useState<string[]>(publisher.authorizedPayoutMethods);
  const [salesRep, setSalesRep] = useState(publisher.salesRep ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    setError(null);
    setSaving(true);
    try {
      await onSave({
        publisherId: publisher.id,
        brand,
        ...(publisher.isWeb ? { domain: domainOf(domain) } : {}),
        revenueSharePct: orNull(share),
        minBalanceForPayout: orNull(minimum),
        authorizedPayoutMethods: methods as PayoutMethod[],
        salesRep: salesRep.trim() ? salesRep.trim() : null,
      });
      onClose();
    } catch (caught) {
      console.error('update-publisher failed', caught);
      setError(apiErrorMessage(caught) ?? t('common.error'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('accounts.editPublisher', { brand: publisher.brand })}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Stack gap="sm">
          <TextInput
            name="brand"
            label={t('accounts.brand')}
            value={brand}
            onChange={(e) => setBrand(e.currentTarget.value)}
          />
          {publisher.isWeb ? (
            <TextInput
              name="domain"
              label={t('accounts.domain')}
              value={domain}
              onChange={(e) => setDomain(e.currentTarget.value)}
            />
          ) : null}
          <NumberInput
            name="revenueSharePct"
            label={t('accounts.revenueSharePct')}
            description={t('accounts.emptyIsDefault')}
            value={share}
            onChange={setShare}
            decimalScale={2}
            hideControls
          />
          <NumberInput
            name="minBalanceForPayout"
            label={t('accounts.minBalanceForPayout')}
            description={t('accounts.emptyIsDefault')}
            value={minimum}
            onChange={setMinimum}
            decimalScale={2}
            hideControls
          />
          <Checkbox.Group label={t('accounts.payoutMethods')} value={methods} onChange={setMethods}>
            <Group mt="xs">
              {PAYOUT_METHODS.map((method) => (
                <Checkbox key={method} value={method} label={t(`payout.methods.${method}`)} />
              ))}
            </Group>
          </Checkbox.Group>
          <TextInput
            name="salesRep"
            type="email"
            label={t('accounts.salesRep')}
            description={t('accounts.salesRepHint')}
            value={salesRep}
            onChange={(e) => setSalesRep(e.currentTarget.value)}
          />
          {error !== null ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={saving}>
              {t('settings.cancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {t('settings.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
