import { useState } from 'react';
import { Alert, Button, Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { COUPON_CODE_MIN_CHARS, TEXT_LIMITS, type TCreateCouponRequest } from '@helium/contracts';
import { ZCreateCouponRequestSchema } from '@helium/contracts/billing';
import { checkRequest } from '@helium/contracts/issues';
import { useFieldErrors } from '../../forms/hooks/useFieldErrors.ts';
import {
  couponFieldOf,
  couponRequest,
  EMPTY_COUPON_FORM,
  missingAmount,
  type CouponFormValues,
} from '../utils/couponForm.ts';

/**
 * Creating a coupon: a code, either a percentage off or free credits, and an optional last day. The contract checks
 * it before it is sent; what it refuses is said beside its field, never corrected silently.
 */
export function CouponCreateForm({ onCreate }: { onCreate: (request: TCreateCouponRequest) => Promise<unknown> }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<CouponFormValues>(EMPTY_COUPON_FORM);
  const errors = useFieldErrors(couponFieldOf);
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const set = (change: Partial<CouponFormValues>) => {
    if ('code' in change) errors.clear('code');
    if ('amount' in change || 'kind' in change) errors.clear('amount');
    if ('expiresOn' in change) errors.clear('expiresOn');
    setValues((old) => ({ ...old, ...change }));
  };

  const submit = async () => {
    setCreated(null);
    const missing = missingAmount(values);
    if (missing) {
      errors.setErrors({ fields: { amount: missing } });
      return;
    }
    const request = couponRequest(values);
    if (!errors.check(checkRequest(ZCreateCouponRequestSchema, request))) return;
    setSaving(true);
    try {
      await onCreate(request);
      setCreated(values.code.trim());
      setValues(EMPTY_COUPON_FORM);
    } catch (caught) {
      console.error('create-coupon failed', caught);
      errors.refused(caught);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      noValidate
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
          description={t('adminPayments.couponCodeHint', { min: COUPON_CODE_MIN_CHARS, max: TEXT_LIMITS.couponCode })}
          error={errors.errorOf('code', { value: values.code, max: TEXT_LIMITS.couponCode })}
          autoComplete="off"
          spellCheck={false}
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
          error={errors.errorOf('amount')}
          thousandSeparator={values.kind === 'free' ? ' ' : undefined}
        />
        <TextInput
          type="date"
          label={t('adminPayments.expiresOn')}
          description={t('adminPayments.expiresOnHint')}
          value={values.expiresOn}
          onChange={(event) => set({ expiresOn: event.currentTarget.value })}
          error={errors.errorOf('expiresOn')}
        />
        {errors.formError !== null ? (
          <Alert color="red" role="alert">
            {errors.formError}
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
