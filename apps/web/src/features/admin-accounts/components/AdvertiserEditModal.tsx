import { useState } from 'react';
import { NumberInput, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminAdvertiser, TUpdateAdvertiserRequest } from '@helium/contracts';
import { useModalAction } from '../hooks/useModalAction.ts';
import { orNull } from '../utils/accountForm.ts';
import { HolderField } from './HolderField.tsx';
import { ModalForm } from './ModalForm.tsx';

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
  const { error, busy, run } = useModalAction(onClose);
  return (
    <ModalForm
      title={t('accounts.editAdvertiser', { brand: advertiser.brand })}
      error={error}
      busy={busy}
      onClose={onClose}
      onSubmit={() =>
        void run('update-advertiser', () =>
          onSave({
            advertiserId: advertiser.id,
            brand,
            salesRep: salesRep.trim() ? salesRep.trim() : null,
            invoiceLimit: orNull(invoiceLimit),
            ...(holder.trim().toLowerCase() !== advertiser.email.toLowerCase() ? { holderEmail: holder.trim() } : {}),
          }),
        )
      }
    >
      <TextInput
        name="brand"
        label={t('accounts.brand')}
        value={brand}
        onChange={(e) => setBrand(e.currentTarget.value)}
      />
      <TextInput
        name="salesRep"
        type="email"
        label={t('accounts.salesRep')}
        description={t('accounts.salesRepHint')}
        value={salesRep}
        onChange={(e) => setSalesRep(e.currentTarget.value)}
      />
      <NumberInput
        name="invoiceLimit"
        label={t('accounts.invoiceLimit')}
        description={t('accounts.invoiceLimitHint')}
        value={invoiceLimit}
        onChange={setInvoiceLimit}
        min={0}
        decimalScale={2}
        hideControls
      />
      <HolderField value={holder} onChange={setHolder} />
    </ModalForm>
  );
}
