import { useState } from 'react';
import { Checkbox, Group, NumberInput, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminPublisher, TUpdatePublisherRequest } from '@helium/contracts';
import { PAYOUT_METHODS, type PayoutMethod } from '@helium/domain/payouts';
import { useModalAction } from '../hooks/useModalAction.ts';
import { domainOf, orNull } from '../utils/accountForm.ts';
import { HolderField } from './HolderField.tsx';
import { ModalForm } from './ModalForm.tsx';

/**
 * Edit a publisher: brand, domain, revenue share and minimum balance (empty = the network's), payout methods, sales
 * rep, and the user who holds it (moving it to another user).
 */
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
  const [holder, setHolder] = useState(publisher.email);
  const { error, busy, run } = useModalAction(onClose);

  const save = () =>
    run('update-publisher', () =>
      onSave({
        publisherId: publisher.id,
        brand,
        ...(publisher.isWeb ? { domain: domainOf(domain) } : {}),
        revenueSharePct: orNull(share),
        minBalanceForPayout: orNull(minimum),
        authorizedPayoutMethods: methods as PayoutMethod[],
        salesRep: salesRep.trim() ? salesRep.trim() : null,
        ...(holder.trim().toLowerCase() !== publisher.email.toLowerCase() ? { holderEmail: holder.trim() } : {}),
      }),
    );

  return (
    <ModalForm
      title={t('accounts.editPublisher', { brand: publisher.brand })}
      error={error}
      busy={busy}
      onClose={onClose}
      onSubmit={() => void save()}
    >
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
      <HolderField value={holder} onChange={setHolder} />
    </ModalForm>
  );
}
