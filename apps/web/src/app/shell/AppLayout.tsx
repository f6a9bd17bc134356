import { useEffect } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { AppShell, Burger, Group, NavLink, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { applyLocale } from '../../i18n/index.ts';
import { AccountSwitcher } from '../../features/account-switcher/components/AccountSwitcher.tsx';
import { ActingAsBar } from '../../features/acting-as/components/ActingAsBar.tsx';
import { useSessionSync } from '../../features/acting-as/hooks/useSessionSync.ts';
import { useCurrentUser } from '../../features/user/hooks/useCurrentUser.ts';
import { menuFor } from '../routes.ts';
import { Logo } from './Logo.tsx';
import classes from './AppLayout.module.css';

function isActive(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/**
 * The signed-in shell: dark sidebar with logo, role menu and account switcher; the routed page on the right, under
 * the "Acting as" bar while an admin acts as the user.
 */
export function AppLayout() {
  const user = useCurrentUser();
  useSessionSync(user);
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [navbarOpened, { toggle: toggleNavbar, close: closeNavbar }] = useDisclosure(false);

  useEffect(() => {
    applyLocale(user.locale);
  }, [user.locale]);

  // A page change on a phone hides the navbar again, as a person expects after choosing a link.
  useEffect(() => {
    closeNavbar();
  }, [pathname, closeNavbar]);

  return (
    <AppShell
      header={{ height: { base: 56, sm: 0 } }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !navbarOpened } }}
      padding={{ base: 'sm', sm: 'md' }}
    >
      <AppShell.Header hiddenFrom="sm" className={classes.header}>
        <Group h="100%" px="md" gap="sm" wrap="nowrap">
          <Burger
            opened={navbarOpened}
            onClick={toggleNavbar}
            size="sm"
            color="white"
            aria-label={t('nav.toggle')}
            aria-expanded={navbarOpened}
            aria-controls="app-navbar"
          />
          <Logo color="white" size="sm" />
        </Group>
      </AppShell.Header>

      <AppShell.Navbar id="app-navbar" className={classes.navbar} aria-label={t('nav.main')}>
        <AppShell.Section p="md" visibleFrom="sm">
          <Logo color="white" />
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea} px="xs" py="xs">
          {menuFor(user.type).map((entry) => {
            const active = isActive(pathname, entry.to);
            return (
              <NavLink
                key={entry.name}
                component={Link}
                to={entry.to}
                label={t(entry.navKey)}
                active={active}
                aria-current={active ? 'page' : undefined}
                variant="filled"
                className={classes.link}
              />
            );
          })}
        </AppShell.Section>
        <AppShell.Section p="xs" className={classes.identity}>
          <AccountSwitcher user={user} />
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        <ActingAsBar user={user} />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
