import { Button, Collapse, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignAd, TCampaignEx } from '@helium/contracts';
import { DRAWER_HEIGHT_PX } from '../utils/logic.ts';
import { AdPreview } from './AdPreview.tsx';
import { LockIcon } from '../../../app/icons.tsx';

/** The ejected ads, folded under their count, each with its way back (unless it is locked); nothing without any. */
export function EjectedAdsDrawer({
  campaign,
  opened,
  onToggle,
  onInject,
}: {
  campaign: TCampaignEx;
  opened: boolean;
  onToggle: () => void;
  onInject: (ad: TCampaignAd) => void;
}) {
  const { t } = useTranslation();
  const ejected = campaign.ads.filter((ad) => ad.isEjected);
  if (ejected.length === 0) return null;
  return (
    <Paper withBorder p="sm" data-testid="ejected-drawer">
      <UnstyledButton onClick={onToggle} aria-expanded={opened}>
        <Text fw={600}>{t('activity.ejectedCount', { count: ejected.length })}</Text>
      </UnstyledButton>
      <Collapse expanded={opened}>
        <Stack h={DRAWER_HEIGHT_PX} style={{ overflowY: 'auto' }} mt="sm">
          {ejected.map((ad) => (
            <Group key={ad.id} data-testid={`ejected-${ad.id}`}>
              <AdPreview ad={ad} dimmed />
              {ad.isLocked ? (
                <LockIcon label={t('activity.locked')} />
              ) : (
                <Button size="xs" disabled={campaign.isFinished} onClick={() => onInject(ad)}>
                  {t('activity.reinject')}
                </Button>
              )}
            </Group>
          ))}
        </Stack>
      </Collapse>
    </Paper>
  );
}
