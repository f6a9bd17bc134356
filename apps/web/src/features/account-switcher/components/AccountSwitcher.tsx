import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Box, LoadingOverlay, Menu, Portal, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TUpdateUserRequest, TUser } from '@helium/contracts';
import { LOCALES, type Currency } from '@helium/domain/format';
import { USER_TYPE } from '@helium/domain/roles';
import { api } from '../../../api/client.ts';
import { userChanged } from '../../user/hooks/useCurrentUser.ts';
import { useMenuTypeAhead } from '../hooks/useMenuTypeAhead.ts';
import { accountEntries, ROLE_KEY, type AccountEntry } from '../utils/accountEntries.ts';
import { CheckMark } from './CheckMark.tsx';
import { ChevronUpIcon } from '../../../app/icons.tsx';
import { Choice } from './Choice.tsx';
import classes from '../../../app/shell/AppLayout.module.css';

/** The admin's API tokens (app/router.tsx). */
const ADMIN_API_TOKENS_PATH = '/admin/api-tokens';

/** Currencies in the order the specification lists them. */
const CURRENCY_ORDER: readonly Currency[] = ['btc', 'eur', 'usd'];

/** The identity block at the bottom of the sidebar: accounts, language, currency and sign-out. */
export function AccountSwitcher({ user }: { user: TUser }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const [switching, setSwitching] = useState(false);
  const onTypeAhead = useMenuTypeAhead(opened);

  const roleLabel = (type: AccountEntry['type']) => t(ROLE_KEY[type]);
  const entries = accountEntries(user);
  const currentAccountLabel = user.type === USER_TYPE.admin ? roleLabel(USER_TYPE.admin) : (user.accountBrand ?? '');

  async function switchAccount(entry: AccountEntry) {
    if (entry.current) return;
    setSwitching(true);
    try {
      await api.updateUser({ key: 'type', value: entry.value });
      window.location.reload();
    } catch (error) {
      console.error('Account switch failed', error);
      setSwitching(false);
    }
  }

  async function changeSetting(request: Extract<TUpdateUserRequest, { key: 'locale' | 'currency' }>) {
    try {
      await api.updateUser(request);
      await userChanged(queryClient);
    } catch (error) {
      console.error('User update failed', error);
    }
  }

  async function signOut() {
    if (!window.confirm(t('common.signOutConfirm'))) return;
    try {
      await api.signOut();
    } catch (error) {
      console.error('Sign-out call failed', error);
    }
    await navigate('/signin', { replace: true });
    // Only after leaving the signed-in shell, which would otherwise ask for the user again.
    queryClient.removeQueries();
  }

  return (
    <>
      <Menu opened={opened} onChange={setOpened} position="top-start" width={260} shadow="md" loop withinPortal>
        <Menu.Target>
          <UnstyledButton className={classes.identityButton} data-expanded={opened || undefined}>
            <Box style={{ flex: 1, minWidth: 0 }}>
              <Text size="sm" fw={600} truncate="end">
                {user.name}
              </Text>
              <Text size="xs" c="gray.5" truncate="end">
                {user.type === USER_TYPE.admin
                  ? currentAccountLabel
                  : `${currentAccountLabel} · ${roleLabel(user.type)}`}
              </Text>
            </Box>
            <ChevronUpIcon size={14} />
          </UnstyledButton>
        </Menu.Target>

        <Menu.Dropdown onKeyDown={onTypeAhead}>
          <Menu.Label>{t('switcher.accounts')}</Menu.Label>
          {entries.map((entry) => {
            const label = entry.brand ?? roleLabel(entry.type);
            const tagged = user.isMultiType && entry.type !== USER_TYPE.admin;
            return (
              <Choice
                key={entry.value}
                label={label}
                current={entry.current}
                ariaLabel={tagged ? `${label} (${roleLabel(entry.type)})` : undefined}
                rightSection={
                  tagged ? (
                    <Badge size="xs" variant="light" color={entry.type === USER_TYPE.publisher ? 'teal' : 'grape'}>
                      {roleLabel(entry.type)}
                    </Badge>
                  ) : undefined
                }
                onChoose={() => void switchAccount(entry)}
              />
            );
          })}

          <Menu.Divider />
          <Menu.Label>{t('switcher.language')}</Menu.Label>
          {LOCALES.map((locale) => (
            <Choice
              key={locale}
              label={t(`language.${locale}`)}
              current={user.locale === locale}
              onChoose={() => void changeSetting({ key: 'locale', value: locale })}
            />
          ))}

          <Menu.Divider />
          <Menu.Label>{t('switcher.currency')}</Menu.Label>
          {CURRENCY_ORDER.map((currency) => (
            <Choice
              key={currency}
              label={t(`currency.${currency}`)}
              current={user.currency === currency}
              onChoose={() => void changeSetting({ key: 'currency', value: currency })}
            />
          ))}

          <Menu.Divider />
          {user.type === USER_TYPE.admin ? (
            // Advertisers and publishers have theirs on Settings.
            <Menu.Item
              leftSection={<CheckMark visible={false} />}
              data-typeahead-label={t('apiTokens.title')}
              onClick={() => void navigate(ADMIN_API_TOKENS_PATH)}
              data-testid="menu-api-tokens"
            >
              {t('apiTokens.title')}
            </Menu.Item>
          ) : null}
          <Menu.Item
            color="red"
            leftSection={<CheckMark visible={false} />}
            data-typeahead-label={t('common.signOut')}
            onClick={() => void signOut()}
          >
            {t('common.signOut')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>

      {/* In a portal: the mobile navbar is transformed, which would trap a fixed overlay inside it. */}
      <Portal>
        <LoadingOverlay
          visible={switching}
          pos="fixed"
          zIndex={1000}
          overlayProps={{ blur: 2 }}
          loaderProps={{ 'aria-label': t('switcher.switching') }}
        />
      </Portal>
    </>
  );
}
