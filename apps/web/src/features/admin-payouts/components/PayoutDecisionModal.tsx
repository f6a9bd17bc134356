import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEXT_LIMITS, type TAdminPayout, type TUpdatePayoutRequest } from '@helium/contracts';
import { ZUpdatePayoutRequestSchema } from '@helium/contracts/payouts';
import { checkRequest } from '@helium/contracts/issues';
import { useFieldErrors } from '../../forms/hooks/useFieldErrors.ts';
import type { FieldOf } from '../../forms/utils/issues.ts';
import { decisionRequest, type PayoutDecision } from '../utils/payouts.ts';

/** The one text of the form: the reference of a payout paid, the reason of one returned. */
const fieldOf: FieldOf<'text'> = (path) => (path === 'reference' || path === 'reason' ? 'text' : null);

/**
 * Marking a payout paid (with the transfer's reference) or returned (with the reason): both required, confirmed in
 * the browser before they are sent; a refusal of the server stays in the form.
 */
export function PayoutDecisionModal({
  payout,
  decision,
  onClose,
  onDecide,
}: {
  payout: TAdminPayout;
  decision: PayoutDecision;
  onClose: () => void;
  onDecide: (request: TUpdatePayoutRequest) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const errors = useFieldErrors(fieldOf);
  const [sending, setSending] = useState(false);
  const paid = decision === 'paid';
  const facts = { id: payout.id, brand: payout.brand, amount: payout.amountToSendStr };
  const max = paid ? TEXT_LIMITS.payoutReference : TEXT_LIMITS.payoutReason;

  const submit = async () => {
    const request = decisionRequest(payout.id, decision, text);
    if (!request) {
      const required = paid ? t('adminPayouts.referenceRequired') : t('adminPayouts.reasonRequired');
      errors.setErrors({ fields: { text: { text: required } } });
      return;
    }
    if (!errors.check(checkRequest(ZUpdatePayoutRequestSchema, request))) return;
    if (!window.confirm(paid ? t('adminPayouts.confirmPaid', facts) : t('adminPayouts.confirmReturned', facts))) return;
    setSending(true);
    try {
      await onDecide(request);
      onClose();
    } catch (caught) {
      console.error('update-payout failed', caught);
      errors.refused(caught);
      setSending(false);
    }
  };

  const label = paid ? t('adminPayouts.reference') : t('adminPayouts.reason');
  return (
    <Modal
      opened
      onClose={onClose}
      title={paid ? t('adminPayouts.markPaidTitle', facts) : t('adminPayouts.markReturnedTitle', facts)}
      closeOnClickOutside={!sending}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">
            {t('adminPayouts.decisionSummary', {
              brand: payout.brand,
              amount: payout.amountToSendStr,
              method: t(`payout.methods.${payout.method}`),
            })}
          </Text>
          {paid ? (
            <TextInput
              label={label}
              value={text}
              onChange={(event) => {
                errors.clear('text');
                setText(event.currentTarget.value);
              }}
              error={errors.errorOf('text', { value: text, max })}
              required
              autoComplete="off"
              data-autofocus
            />
          ) : (
            <Textarea
              label={label}
              value={text}
              onChange={(event) => {
                errors.clear('text');
                setText(event.currentTarget.value);
              }}
              error={errors.errorOf('text', { value: text, max })}
              required
              autosize
              minRows={3}
              data-autofocus
            />
          )}
          {errors.formError !== null ? (
            <Alert color="red" role="alert" data-testid="payout-decision-error">
              {errors.formError}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={sending}>
              {t('adminPayouts.cancel')}
            </Button>
            <Button type="submit" color={paid ? 'teal' : 'orange'} loading={sending}>
              {paid ? t('adminPayouts.markPaid') : t('adminPayouts.markReturned')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
