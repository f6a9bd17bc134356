import { useState } from 'react';
import { Checkbox, Group, NumberInput, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEXT_LIMITS, type TAdminPublisher, type TUpdatePublisherRequest } from '@helium/contracts';
import { ZUpdatePublisherRequestSchema } from '@helium/contracts/admin-network';
import { PAYOUT_METHODS, type PayoutMethod } from '@helium/domain/payouts';
import { topLevelField } from '../../forms/utils/issues.ts';
import { useModalAction } from '../hooks/useModalAction.ts';
import { domainOf, orNull } from '../utils/accountForm.ts';
import { HolderField } from './HolderField.tsx';
import { ModalForm } from './ModalForm.tsx';

const FIELDS = [
  'brand',
  'domain',
  'revenueSharePct',
  'minBalanceForPayout',
  'authorizedPayoutMethods',
  'salesRep',
  'holderEmail',
] as const;
const fieldOf = topLevelField(FIELDS);

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
  const { errors, busy, run } = useModalAction(onClose, fieldOf);
  /** A field's change: its value, and its error gone until the next save. */
  const change =
    <T,>(field: (typeof FIELDS)[number], setter: (value: T) => void) =>
    (value: T) => {
      errors.clear(field);
      setter(value);
    };

  const save = () =>
    run(
      'update-publisher',
      ZUpdatePublisherRequestSchema,
      {
        publisherId: publisher.id,
        brand,
        ...(publisher.isWeb ? { domain: domainOf(domain) } : {}),
        revenueSharePct: orNull(share),
        minBalanceForPayout: orNull(minimum),
        authorizedPayoutMethods: methods as PayoutMethod[],
        salesRep: salesRep.trim() ? salesRep.trim() : null,
        ...(holder.trim().toLowerCase() !== publisher.email.toLowerCase() ? { holderEmail: holder.trim() } : {}),
      },
      onSave,
    );

  return (
    <ModalForm
      title={t('accounts.editPublisher', { brand: publisher.brand })}
      error={errors.formError}
      busy={busy}
      onClose={onClose}
      onSubmit={() => void save()}
    >
      <TextInput
        name="brand"
        label={t('accounts.brand')}
        value={brand}
        onChange={(e) => change('brand', setBrand)(e.currentTarget.value)}
        error={errors.errorOf('brand', { value: brand, max: TEXT_LIMITS.brand })}
      />
      {publisher.isWeb ? (
        <TextInput
          name="domain"
          label={t('accounts.domain')}
          value={domain}
          onChange={(e) => change('domain', setDomain)(e.currentTarget.value)}
          error={errors.errorOf('domain', { value: domain, max: TEXT_LIMITS.domain })}
        />
      ) : null}
      <NumberInput
        name="revenueSharePct"
        label={t('accounts.revenueSharePct')}
        description={t('accounts.emptyIsDefault')}
        value={share}
        onChange={change('revenueSharePct', setShare)}
        error={errors.errorOf('revenueSharePct')}
        hideControls
      />
      <NumberInput
        name="minBalanceForPayout"
        label={t('accounts.minBalanceForPayout')}
        description={t('accounts.emptyIsDefault')}
        value={minimum}
        onChange={change('minBalanceForPayout', setMinimum)}
        error={errors.errorOf('minBalanceForPayout')}
        hideControls
      />
      <Checkbox.Group
        label={t('accounts.payoutMethods')}
        value={methods}
        onChange={change('authorizedPayoutMethods', setMethods)}
        error={errors.errorOf('authorizedPayoutMethods')}
      >
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
        onChange={(e) => change('salesRep', setSalesRep)(e.currentTarget.value)}
        error={errors.errorOf('salesRep', { value: salesRep, max: TEXT_LIMITS.email })}
      />
      <HolderField
        value={holder}
        onChange={change('holderEmail', setHolder)}
        error={errors.errorOf('holderEmail', { value: holder, max: TEXT_LIMITS.email })}
      />
    </ModalForm>
  );
}
