import type { ReactNode } from 'react';
import { Button, Paper, Table, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** One table of the Accounts page in its titled section: the columns' headers, then the rows' actions (unnamed). */
export function AccountsSection({
  id,
  title,
  testId,
  columns,
  children,
}: {
  id: string;
  title: string;
  testId: string;
  columns: string[];
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      <Table.ScrollContainer minWidth={720}>
        <Table striped data-testid={testId}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
              <Table.Th>
                <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

/** A row's action: its visible text is short (Edit), its accessible name says which row it acts on. */
export function RowAction({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <Button size="xs" variant="default" onClick={onClick} aria-label={label}>
      {children}
    </Button>
  );
}
