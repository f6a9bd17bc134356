import { useState } from 'react';
import { Badge, Button, Paper, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type {
  TAdminCampaign,
  TAdminPublisher,
  TGetAccountsResponse,
  TGrantCampaignCreditsRequest,
  TUpdateAdvertiserCampaignRequest,
  TUpdatePublisherRequest,
} from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { CampaignEditModal } from './CampaignEditModal.tsx';
import { PublisherEditModal } from './PublisherEditModal.tsx';

/** The publishers and the advertisers' campaigns found, each with its Edit button. */
export function AccountsTables({
  accounts,
  onUpdatePublisher,
  onUpdateCampaign,
  onGrant,
}: {
  accounts: TGetAccountsResponse;
  onUpdatePublisher: (request: TUpdatePublisherRequest) => Promise<unknown>;
  onUpdateCampaign: (request: TUpdateAdvertiserCampaignRequest) => Promise<unknown>;
  onGrant: (request: TGrantCampaignCreditsRequest) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [publisher, setPublisher] = useState<TAdminPublisher | null>(null);
  const [campaign, setCampaign] = useState<{ brand: string; campaign: TAdminCampaign } | null>(null);
  return (
    <>
      <Paper withBorder p="md" component="section" aria-labelledby="publishers-title">
        <Title order={2} size="h4" id="publishers-title" mb="sm">
          {t('accounts.publishers')}
        </Title>
        <Table.ScrollContainer minWidth={720}>
          <Table striped data-testid="publishers-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('accounts.brand')}</Table.Th>
                <Table.Th>{t('accounts.user')}</Table.Th>
                <Table.Th>{t('accounts.domain')}</Table.Th>
                <Table.Th>{t('accounts.revenueSharePct')}</Table.Th>
                <Table.Th>{t('accounts.minBalanceForPayout')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {accounts.publishers.map((row) => (
                <Table.Tr key={row.id} data-testid={`publisher-${row.id}`}>
                  <Table.Td>
                    {row.brand}{' '}
                    {row.isInstalled ? (
                      <Badge size="xs" color="green">
                        {t('accounts.installed')}
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{row.email}</Table.Td>
                  <Table.Td>{row.isWeb ? row.domain : t('accounts.newsletter')}</Table.Td>
                  <Table.Td>
                    {row.revenueSharePct === null ? t('accounts.default') : format.percent(row.revenueSharePct, 2)}
                  </Table.Td>
                  <Table.Td>
                    {row.minBalanceForPayout === null ? t('accounts.default') : format.euros(row.minBalanceForPayout)}
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => setPublisher(row)}
                      aria-label={t('accounts.editPublisher', { brand: row.brand })}
                    >
                      {t('accounts.edit')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="advertisers-title">
        <Title order={2} size="h4" id="advertisers-title" mb="sm">
          {t('accounts.advertisers')}
        </Title>
        <Table.ScrollContainer minWidth={720}>
          <Table striped data-testid="campaigns-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('accounts.brand')}</Table.Th>
                <Table.Th>{t('accounts.user')}</Table.Th>
                <Table.Th>{t('accounts.campaign')}</Table.Th>
                <Table.Th>{t('accounts.price')}</Table.Th>
                <Table.Th>{t('accounts.remaining')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {accounts.advertisers.flatMap((advertiser) =>
                advertiser.campaigns.length === 0
                  ? [
                      <Table.Tr key={`a${advertiser.id}`}>
                        <Table.Td>{advertiser.brand}</Table.Td>
                        <Table.Td>{advertiser.email}</Table.Td>
                        <Table.Td colSpan={4}>
                          <Text c="dimmed" size="sm">
                            {t('accounts.noCampaign')}
                          </Text>
                        </Table.Td>
                      </Table.Tr>,
                    ]
                  : advertiser.campaigns.map((row) => (
                      <Table.Tr key={row.id} data-testid={`campaign-${row.id}`}>
                        <Table.Td>{advertiser.brand}</Table.Td>
                        <Table.Td>{advertiser.email}</Table.Td>
                        <Table.Td>
                          #{row.id} {row.isCpc ? 'CPC' : 'CPM'}
                          {row.isTrial ? (
                            <Badge size="xs" ml="xs">
                              {t('accounts.flags.isTrial')}
                            </Badge>
                          ) : null}
                        </Table.Td>
                        <Table.Td>{format.euros(row.isCpc ? row.cpc : row.cpm)}</Table.Td>
                        <Table.Td>{format.number(row.isCpc ? row.remainingClicks : row.remainingImpressions)}</Table.Td>
                        <Table.Td>
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => setCampaign({ brand: advertiser.brand, campaign: row })}
                          >
                            {t('accounts.edit')}
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                    )),
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      {publisher ? (
        <PublisherEditModal publisher={publisher} onClose={() => setPublisher(null)} onSave={onUpdatePublisher} />
      ) : null}
      {campaign ? (
        <CampaignEditModal
          brand={campaign.brand}
          campaign={campaign.campaign}
          onClose={() => setCampaign(null)}
          onSave={onUpdateCampaign}
          onGrant={onGrant}
        />
      ) : null}
    </>
  );
}
