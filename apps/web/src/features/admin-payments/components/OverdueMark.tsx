import { Badge } from '@mantine/core';

/** A red mark that says its meaning in words too: never colour alone. */
export function OverdueMark({ children }: { children: string }) {
  return (
    <Badge color="red" variant="filled" radius="sm" style={{ minWidth: 'max-content' }} data-overdue="true">
      {children}
    </Badge>
  );
}
