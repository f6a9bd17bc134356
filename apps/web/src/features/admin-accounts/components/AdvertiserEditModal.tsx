import { useState } from 'react';
import { NumberInput, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEXT_LIMITS, type TAdminAdvertiser, type TUpdateAdvertiserRequest } from '@helium/contracts';
import { ZUpdateAdvertiserRequestSchema } from '@helium/contracts/admin-network';
import { topLevelField } from '../../forms/utils/issues.ts';
import { useModalAction } from '../hooks/useModalAction.ts';
import { orNull } from '../utils/accountForm.ts';
import { HolderField } from './HolderField.tsx';
import { ModalForm } from './ModalForm.tsx';

const fieldOf = topLevelField(['brand', 'salesRep', 'invoiceLimit', 'holderEmail'] as const);

/**
 * Edit an advertiser: brand, sales rep, the ceiling of its unpaid invoices (empty = 10 x the network's minimum order
 * paid by invoice), and the user who holds it (moving it to another user).
 */
export function AdvertiserEditModal({
  advertiser,
  onClose,
  onSave,
}: {
  advertiser: TAdminAdvertiser;
  onClose: () => void;
  onSave: (request: TUpdateAdvertiserRequest) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [brand, setBrand] = useState(advertiser.brand);
  const [salesRep, setSalesRep] = useState(advertiser.salesRep ?? '');
  const [holder, setHolder] = useState(advertiser.email);
  const [invoiceLimit, setInvoiceLimit] = useState<number | string>(advertiser.invoiceLimit ?? '');
  const { errors, busy, run } = useModalAction(onClose, fieldOf);
  return (
    <ModalForm
      title={t('accounts.editAdvertiser', { brand: advertiser.brand })}
      error={errors.formError}
      busy={busy}
      onClose={onClose}
      onSubmit={() =>
        void run(
          'update-advertiser',
          ZUpdateAdvertiserRequestSchema,
          {
            advertiserId: advertiser.id,
            brand,
            salesRep: salesRep.trim() ? salesRep.trim() : null,
            invoiceLimit: orNull(invoiceLimit),
            ...(holder.trim().toLowerCase() !== advertiser.email.toLowerCase() ? { holderEmail: holder.trim() } : {}),
          },
          onSave,
        )
      }
    >
      <TextInput
        name="brand"
        label={t('accounts.brand')}
        value={brand}
        onChange={(e) => {
          errors.clear('brand');
          setBrand(e.currentTarget.value);
        }}
        error={errors.errorOf('brand', { value: brand, max: TEXT_LIMITS.brand })}
      />
      <TextInput
        name="salesRep"
        type="email"
        label={t('accounts.salesRep')}
        description={t('accounts.salesRepHint')}
        value={salesRep}
        onChange={(e) => {
          errors.clear('salesRep');
          setSalesRep(e.currentTarget.value);
        }}
        error={errors.errorOf('salesRep', { value: salesRep, max: TEXT_LIMITS.email })}
      />
      <NumberInput
        name="invoiceLimit"
        label={t('accounts.invoiceLimit')}
        description={t('accounts.invoiceLimitHint')}
        value={invoiceLimit}
        onChange={(value) => {
          errors.clear('invoiceLimit');
          setInvoiceLimit(value);
        }}
        error={errors.errorOf('invoiceLimit')}
        hideControls
      />
      <HolderField
        value={holder}
        onChange={(value) => {
          errors.clear('holderEmail');
          setHolder(value);
        }}
        error={errors.errorOf('holderEmail', { value: holder, max: TEXT_LIMITS.email })}
      />
    </ModalForm>
  );
}
