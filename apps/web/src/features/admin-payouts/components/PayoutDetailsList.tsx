import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminPayout } from '@helium/contracts';
import { detailEntries } from '../utils/payouts.ts';

/** Where the money goes: the method's details as they were when the payout was asked. */
export function PayoutDetailsList({ details }: { details: TAdminPayout['details'] }) {
  const { t } = useTranslation();
  const entries = detailEntries(details);
  if (entries.length === 0) return <Text size="sm">—</Text>;
  return (
    <Stack gap={2}>
      {entries.map((entry) => (
        <Text key={entry.key} size="xs" className="user-text">
          <Text span c="dimmed" size="xs">
            {entry.known ? t(`settings.fields.${entry.known}`) : entry.key}:
          </Text>{' '}
          <Text
            span
            size="xs"
            ff={entry.known === 'iban' || entry.known === 'bic' || entry.known === 'address' ? 'monospace' : undefined}
            style={{ whiteSpace: 'pre-line' }}
          >
            {entry.value}
          </Text>
        </Text>
      ))}
    </Stack>
  );
}
