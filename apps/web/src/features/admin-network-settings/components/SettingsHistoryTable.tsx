import { Badge, Paper, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TNetworkSettingName, TNetworkSettings } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';

/**
 * The settings' history, newest first: when, by whom, the rates then, and what each change changed. A row that
 * breaks the rules (written before them, or by hand) is marked, with its fields at fault: it never applied.
 */
export function SettingsHistoryTable({ history }: { history: TNetworkSettings[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="settings-history">
      <Title order={2} size="h4" id="settings-history" mb="sm">
        {t('networkSettings.history.title')}
      </Title>
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="settings-history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('networkSettings.history.date')}</Table.Th>
              <Table.Th>{t('networkSettings.history.by')}</Table.Th>
              <Table.Th>{t('networkSettings.fields.usdToEur')}</Table.Th>
              <Table.Th>{t('networkSettings.fields.btcToEur')}</Table.Th>
              <Table.Th>{t('networkSettings.history.changed')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {history.map((row) => (
              <Table.Tr key={row.id} data-testid={`settings-row-${row.id}`}>
                <Table.Td>{row.createdAtStr}</Table.Td>
                <Table.Td>{row.createdBy ?? '—'}</Table.Td>
                <Table.Td>{format.number(row.usdToEur, 4)}</Table.Td>
                <Table.Td>{format.number(row.btcToEur, 2)}</Table.Td>
                <Table.Td>
                  {row.invalidFields.length > 0 ? (
                    <Badge color="red" variant="light" mr="xs" data-testid="settings-row-invalid">
                      {t('networkSettings.history.invalid', {
                        fields: (row.invalidFields as TNetworkSettingName[])
                          .map((field) => t(`networkSettings.fields.${field}`))
                          .join(', '),
                      })}
                    </Badge>
                  ) : null}
                  {row.changed.length > 0 ? (
                    (row.changed as TNetworkSettingName[])
                      .map((field) => t(`networkSettings.fields.${field}`))
                      .join(', ')
                  ) : (
                    <Text span c="dimmed" size="sm">
                      {t('networkSettings.history.initial')}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
