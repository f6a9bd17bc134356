import { Group, Switch, Table, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignAd, TCampaignEx, TPublisherStatLine } from '@helium/contracts';
import { useMetricTexts } from '../hooks/useMetricTexts.ts';
import { METRIC_KEYS } from '../utils/metricKeys.ts';
import type { AdTableProps } from './AdTable.tsx';
import { InfoIcon } from '../../../app/icons.tsx';

const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** One publisher's line under its ad, in by-publisher mode. */
export function PublisherLine({
  ad,
  line,
  campaign,
  onActivate,
}: {
  ad: TCampaignAd;
  line: TPublisherStatLine;
  campaign: TCampaignEx;
  onActivate: AdTableProps['onActivate'];
}) {
  const { t } = useTranslation();
  const texts = useMetricTexts()(line);
  const canSwitch = line.isPublisherInstalled && line.isPublisherAuthorized && campaign.canActivateAdsByPublisher;
  return (
    <Table.Tr data-testid={`publisher-line-${ad.id}-${line.id}`}>
      <Table.Td />
      <Table.Td colSpan={2}>
        <Group gap="xs" wrap="nowrap">
          {canSwitch ? (
            <Switch
              size="xs"
              checked={line.doShow}
              disabled={campaign.isFinished || ad.isEjected}
              aria-label={t('activity.publisherSwitch', { brand: line.brand })}
              onChange={(event) => onActivate(ad, line.id, event.currentTarget.checked)}
            />
          ) : (
            <Tooltip label={t('activity.publisherNotSwitchable')} multiline w={260}>
              <span>
                <InfoIcon label={t('activity.publisherNotSwitchable')} />
              </span>
            </Tooltip>
          )}
          <Text size="xs">{line.brand}</Text>
        </Group>
      </Table.Td>
      {METRIC_KEYS.map((key) => (
        <Table.Td key={key} ta="right" style={NOWRAP}>
          <Text size="xs">{texts[key]}</Text>
        </Table.Td>
      ))}
    </Table.Tr>
  );
}
