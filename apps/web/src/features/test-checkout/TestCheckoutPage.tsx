import { Alert, Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { CheckoutSummary } from './components/CheckoutSummary.tsx';
import { useTestCheckout } from './hooks/useTestCheckout.ts';

const ACTIVITY_PATH = '/advertiser/activity';

/**
 * The local stand-in for the card provider's hosted checkout, used when Stripe is not configured: it says so in
 * plain words, shows what is bought, and pays it without any card.
 */
export function TestCheckoutPage() {
  const { t } = useTranslation();
  const { sessionId = '' } = useParams();
  const { query, paying, error, pay } = useTestCheckout(sessionId);
  const checkout = query.data;

  return (
    <Stack maw={560} gap="md">
      <PageHeader title={t('testCheckout.title')} />
      <Alert color="orange" variant="filled" role="note" data-testid="test-checkout-banner">
        <Text fw={700} size="lg">
          {t('testCheckout.banner')}
        </Text>
      </Alert>
      {query.isError ? (
        <Alert color="red" role="alert" data-testid="test-checkout-error">
          {isApiError(query.error, 404) || isApiError(query.error, 422) ? t('testCheckout.unknown') : t('common.error')}
        </Alert>
      ) : !checkout ? (
        <DelayedLoader aria-label={t('common.loading')} />
      ) : (
        <Paper withBorder p="md">
          <Stack gap="md">
            <CheckoutSummary checkout={checkout} />
            {checkout.state === 'paid' ? (
              <Text role="status">{t('testCheckout.alreadyPaid')}</Text>
            ) : checkout.state === 'cancelled' ? (
              <Text role="status">{t('testCheckout.cancelled')}</Text>
            ) : null}
            {error !== null ? (
              <Alert color="red" role="alert">
                {error || t('common.error')}
              </Alert>
            ) : null}
            <Group justify="space-between" gap="sm">
              <Anchor component={Link} to={ACTIVITY_PATH}>
                {t('testCheckout.cancel')}
              </Anchor>
              {checkout.state === 'pending' || checkout.state === 'unpaid' ? (
                <Button size="md" onClick={() => void pay()} loading={paying}>
                  {t('testCheckout.pay')}
                </Button>
              ) : null}
            </Group>
          </Stack>
        </Paper>
      )}
      {query.isError ? (
        <Anchor component={Link} to={ACTIVITY_PATH}>
          {t('testCheckout.back')}
        </Anchor>
      ) : null}
    </Stack>
  );
}
