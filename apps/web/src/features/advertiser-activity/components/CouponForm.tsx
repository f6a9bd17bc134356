import { useState } from 'react';
import { Button, Group, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEXT_LIMITS } from '@helium/contracts';
import { useTooLongText } from '../../forms/hooks/useIssueText.ts';

export interface CouponState {
  apply: (code: string) => Promise<boolean>;
  /** The server's refusal ('' when it gave no reason), or null. */
  error: string | null;
  applied: boolean;
  applying: boolean;
}

/** A small coupon code field: the server applies the code or says why not. */
export function CouponForm({ coupon }: { coupon: CouponState }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const tooLong = useTooLongText();
  const lengthError = tooLong(code, TEXT_LIMITS.couponCode);
  const submit = async () => {
    if (code.trim() === '' || lengthError) return;
    if (await coupon.apply(code)) setCode('');
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          size="xs"
          label={t('buy.couponCode')}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={lengthError ?? (coupon.error !== null ? coupon.error || t('buy.couponFailed') : undefined)}
          autoComplete="off"
          style={{ flex: 1 }}
          data-testid="coupon-code"
        />
        <Button
          size="xs"
          variant="default"
          type="submit"
          mt={24}
          loading={coupon.applying}
          disabled={code.trim() === ''}
        >
          {t('buy.applyCoupon')}
        </Button>
      </Group>
      {coupon.applied ? (
        <Text size="sm" c="teal" role="status" mt={4}>
          {t('buy.couponApplied')}
        </Text>
      ) : null}
    </form>
  );
}
