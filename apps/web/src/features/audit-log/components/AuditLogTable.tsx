import { Code, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAuditEntry } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';

/** Who did what, when, to which record: newest first. */
export function AuditLogTable({ entries }: { entries: TAuditEntry[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (entries.length === 0) {
    return (
      <Text c="dimmed" data-testid="audit-log-empty">
        {t('auditLog.noEntries')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table aria-label={t('nav.auditLog')} data-testid="audit-log" striped fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('auditLog.when')}</Table.Th>
            <Table.Th>{t('auditLog.who')}</Table.Th>
            <Table.Th>{t('auditLog.action')}</Table.Th>
            <Table.Th>{t('auditLog.record')}</Table.Th>
            <Table.Th>{t('auditLog.details')}</Table.Th>
            <Table.Th>{t('auditLog.ip')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id} data-testid={`audit-entry-${entry.id}`}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{format.dateTime(entry.when)}</Table.Td>
              <Table.Td>
                {entry.actorName === null ? (
                  <Text c="dimmed" fz="sm">
                    {t('auditLog.system')}
                  </Text>
                ) : (
                  <>
                    {entry.actorName}
                    <Text c="dimmed" fz="xs">
                      {entry.actorEmail}
                    </Text>
                  </>
                )}
              </Table.Td>
              <Table.Td>
                <Code>{entry.action}</Code>
              </Table.Td>
              <Table.Td>{entry.targetType ? `${entry.targetType} #${entry.targetId ?? ''}` : ''}</Table.Td>
              <Table.Td>{entry.details}</Table.Td>
              <Table.Td>{entry.ip}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
