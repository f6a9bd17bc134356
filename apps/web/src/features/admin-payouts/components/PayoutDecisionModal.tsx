import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminPayout, TUpdatePayoutRequest } from '@helium/contracts';
import { apiErrorMessage } from '../../../api/client.ts';
import { decisionRequest, type PayoutDecision } from '../utils/payouts.ts';

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
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const paid = decision === 'paid';
  const facts = { id: payout.id, brand: payout.brand, amount: payout.amountToSendStr };

  const submit = async () => {
    const request = decisionRequest(payout.id, decision, text);
    setError(null);
    if (!request) {
      setFieldError(paid ? t('adminPayouts.referenceRequired') : t('adminPayouts.reasonRequired'));
      return;
    }
    setFieldError(null);
    if (!window.confirm(paid ? t('adminPayouts.confirmPaid', facts) : t('adminPayouts.confirmReturned', facts))) return;
    setSending(true);
    try {
      await onDecide(request);
      onClose();
    } catch (caught) {
      console.error('update-payout failed', caught);
      setError(apiErrorMessage(caught) ?? t('common.error'));
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
              onChange={(event) => setText(event.currentTarget.value)}
              error={fieldError}
              required
              maxLength={200}
              autoComplete="off"
              data-autofocus
            />
          ) : (
            <Textarea
              label={label}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              error={fieldError}
              required
              maxLength={500}
              autosize
              minRows={3}
              data-autofocus
            />
          )}
          {error !== null ? (
            <Alert color="red" role="alert" data-testid="payout-decision-error">
              {error}
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
