import { Anchor, Badge, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminUserRow } from '@helium/contracts';

/** Name, e-mail, the Publisher and Advertiser badges (highlighted when held), and "Sign In ->" (a new tab). */
export function AdminUsersTable({ users }: { users: TAdminUserRow[] }) {
  const { t } = useTranslation();
  if (users.length === 0) {
    return (
      <Text c="dimmed" data-testid="admin-users-empty">
        {t('adminUsers.noUsers')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table aria-label={t('nav.users')} data-testid="admin-users" striped fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('adminUsers.name')}</Table.Th>
            <Table.Th>{t('adminUsers.email')}</Table.Th>
            <Table.Th>{t('adminUsers.accounts')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.id} data-testid={`admin-user-${user.id}`}>
              <Table.Td className="user-text">{user.name}</Table.Td>
              <Table.Td className="user-text">{user.email}</Table.Td>
              <Table.Td>
                <Group gap={6}>
                  {user.isAdmin ? <Badge color="dark">{t('adminUsers.admin')}</Badge> : null}
                  <Badge
                    color={user.publisher_ids.length ? 'teal' : 'gray'}
                    variant={user.publisher_ids.length ? 'filled' : 'outline'}
                    data-held={user.publisher_ids.length > 0}
                  >
                    {t('adminUsers.publisher')}
                  </Badge>
                  <Badge
                    color={user.advertiser_ids.length ? 'blue' : 'gray'}
                    variant={user.advertiser_ids.length ? 'filled' : 'outline'}
                    data-held={user.advertiser_ids.length > 0}
                  >
                    {t('adminUsers.advertiser')}
                  </Badge>
                </Group>
              </Table.Td>
              <Table.Td ta="right">
                {user.signinUrl ? (
                  <Anchor
                    href={user.signinUrl}
                    target="_blank"
                    rel="noopener"
                    aria-label={t('adminUsers.signInAs', { name: user.name })}
                  >
                    {t('adminUsers.signIn')}
                  </Anchor>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
