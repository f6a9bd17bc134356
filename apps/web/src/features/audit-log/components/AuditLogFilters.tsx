import { Group, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AuditFilter } from '../hooks/useAuditLog.ts';
import { useUserOptions } from '../hooks/useUserOptions.ts';

/** Filter by user (searched by name or e-mail) and by action. */
export function AuditLogFilters({
  filter,
  actions,
  onChange,
}: {
  filter: AuditFilter;
  actions: string[];
  onChange: (next: Partial<AuditFilter>) => void;
}) {
  const { t } = useTranslation();
  const users = useUserOptions();
  return (
    <Group align="end" gap="md">
      <Select
        label={t('auditLog.user')}
        placeholder={t('auditLog.anyUser')}
        searchable
        clearable
        data={users.options}
        searchValue={users.search}
        onSearchChange={users.setSearch}
        // The server searched already.
        filter={({ options }) => options}
        value={filter.userId === null ? null : String(filter.userId)}
        onChange={(value) => onChange({ userId: value ? Number(value) : null })}
        nothingFoundMessage={t('auditLog.noUser')}
        w={320}
      />
      <Select
        label={t('auditLog.action')}
        placeholder={t('auditLog.anyAction')}
        clearable
        data={actions}
        value={filter.action}
        onChange={(value) => onChange({ action: value })}
        w={260}
      />
    </Group>
  );
}
