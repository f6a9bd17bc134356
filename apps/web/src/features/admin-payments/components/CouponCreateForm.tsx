import { useState } from 'react';
import { Alert, Button, Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCreateCouponRequest } from '@helium/contracts';
import {
  couponErrors,
  couponRequest,
  EMPTY_COUPON_FORM,
  type CouponField,
  type CouponFormValues,
} from '../utils/couponForm.ts';

/** Creating a coupon: a code, either a percentage off or free credits, and an optional last day. */
export function CouponCreateForm({ onCreate }: { onCreate: (request: TCreateCouponRequest) => Promise<unknown> }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<CouponFormValues>(EMPTY_COUPON_FORM);
  const [errors, setErrors] = useState<Partial<Record<CouponField, string>>>({});
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const set = (change: Partial<CouponFormValues>) => setValues((old) => ({ ...old, ...change }));

  const submit = async () => {
    setSaving(true);
    setErrors({});
    setCreated(null);
    try {
      await onCreate(couponRequest(values));
      setCreated(values.code.trim());
      setValues(EMPTY_COUPON_FORM);
    } catch (caught) {
      console.error('create-coupon failed', caught);
      setErrors(couponErrors(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      aria-label={t('adminPayments.newCoupon')}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm" maw={520}>
        <TextInput
          label={t('adminPayments.couponCode')}
          value={values.code}
          onChange={(event) => set({ code: event.currentTarget.value })}
          error={errors.code}
          maxLength={40}
          autoComplete="off"
        />
        <SegmentedControl
          aria-label={t('adminPayments.couponKind')}
          value={values.kind}
          onChange={(kind) => set({ kind: kind as CouponFormValues['kind'] })}
          data={[
            { value: 'percent', label: t('adminPayments.percentOff') },
            { value: 'free', label: t('adminPayments.freeQuantity') },
          ]}
        />
        <NumberInput
          label={values.kind === 'percent' ? t('adminPayments.percentOffLabel') : t('adminPayments.freeQuantityLabel')}
          value={values.amount}
          onChange={(amount) => set({ amount })}
          error={errors.amount}
          min={1}
          max={values.kind === 'percent' ? 100 : undefined}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator={values.kind === 'free' ? ' ' : undefined}
        />
        <TextInput
          type="date"
          label={t('adminPayments.expiresOn')}
          description={t('adminPayments.expiresOnHint')}
          value={values.expiresOn}
          onChange={(event) => set({ expiresOn: event.currentTarget.value })}
          error={errors.expiresOn}
        />
        {errors.form !== undefined ? (
          <Alert color="red" role="alert">
            {errors.form || t('common.error')}
          </Alert>
        ) : null}
        {created ? (
          <Text c="teal" role="status">
            {t('adminPayments.couponCreated', { code: created })}
          </Text>
        ) : null}
        <Group>
          <Button type="submit" loading={saving}>
            {t('adminPayments.createCoupon')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
