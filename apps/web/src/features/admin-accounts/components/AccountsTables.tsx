import { useState } from 'react';
import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pricingName } from '@helium/domain/pricing';
import type {
  TAdminAdvertiser,
  TAdminCampaign,
  TAdminPublisher,
  TCreateCampaignRequest,
  TGetAccountsResponse,
  TGrantCampaignCreditsRequest,
  TUpdateAccountUserRequest,
  TUpdateAdvertiserCampaignRequest,
  TUpdateAdvertiserRequest,
  TUpdatePublisherRequest,
} from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { AdvertiserEditModal } from './AdvertiserEditModal.tsx';
import { CampaignEditModal } from './CampaignEditModal.tsx';
import { NewCampaignModal } from './NewCampaignModal.tsx';
import { PublisherEditModal } from './PublisherEditModal.tsx';
import { UserEditModal, type EditedUser } from './UserEditModal.tsx';
import { AccountsSection, RowAction } from './AccountsSection.tsx';

/** The holder's e-mail, a button that opens the user's editor. */
function HolderButton({ holder, onEdit }: { holder: EditedUser; onEdit: (user: EditedUser) => void }) {
  const { t } = useTranslation();
  return (
    <Button
      variant="subtle"
      size="compact-sm"
      px={4}
      onClick={() => onEdit(holder)}
      aria-label={t('accounts.editUser', { email: holder.email })}
    >
      {holder.email}
    </Button>
  );
}

/**
 * The publishers and the advertisers with their campaigns found, each with its Edit button; an advertiser also has
 * New campaign, and each holder's e-mail opens the user's editor.
 */
export function AccountsTables({
  accounts,
  onUpdatePublisher,
  onUpdateAdvertiser,
  onUpdateCampaign,
  onCreateCampaign,
  onGrant,
  onUpdateUser,
}: {
  accounts: TGetAccountsResponse;
  onUpdatePublisher: (request: TUpdatePublisherRequest) => Promise<unknown>;
  onUpdateAdvertiser: (request: TUpdateAdvertiserRequest) => Promise<unknown>;
  onUpdateCampaign: (request: TUpdateAdvertiserCampaignRequest) => Promise<unknown>;
  onCreateCampaign: (request: TCreateCampaignRequest) => Promise<unknown>;
  onGrant: (request: TGrantCampaignCreditsRequest) => Promise<unknown>;
  onUpdateUser: (request: TUpdateAccountUserRequest) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [publisher, setPublisher] = useState<TAdminPublisher | null>(null);
  const [advertiser, setAdvertiser] = useState<TAdminAdvertiser | null>(null);
  const [newCampaignOf, setNewCampaignOf] = useState<TAdminAdvertiser | null>(null);
  const [campaign, setCampaign] = useState<{ brand: string; campaign: TAdminCampaign } | null>(null);
  const [user, setUser] = useState<EditedUser | null>(null);
  return (
    <>
      <AccountsSection
        id="publishers-title"
        title={t('accounts.publishers')}
        testId="publishers-table"
        columns={[
          t('accounts.brand'),
          t('accounts.user'),
          t('accounts.domain'),
          t('accounts.revenueSharePct'),
          t('accounts.minBalanceForPayout'),
        ]}
      >
        {accounts.publishers.map((row) => (
          <Table.Tr key={row.id} data-testid={`publisher-${row.id}`}>
            <Table.Td className="user-text">
              {row.brand}{' '}
              {row.isInstalled ? (
                <Badge size="xs" color="green">
                  {t('accounts.installed')}
                </Badge>
              ) : null}
            </Table.Td>
            <Table.Td>
              <HolderButton holder={row} onEdit={setUser} />
            </Table.Td>
            <Table.Td>{row.isWeb ? row.domain : t('accounts.newsletter')}</Table.Td>
            <Table.Td>
              {row.revenueSharePct === null ? t('accounts.default') : format.percent(row.revenueSharePct, 2)}
            </Table.Td>
            <Table.Td>
              {row.minBalanceForPayout === null ? t('accounts.default') : format.euros(row.minBalanceForPayout)}
            </Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <RowAction label={t('accounts.editPublisher', { brand: row.brand })} onClick={() => setPublisher(row)}>
                  {t('accounts.edit')}
                </RowAction>
                {row.isWeb ? (
                  <Button
                    size="xs"
                    variant="default"
                    component={Link}
                    to={`/admin/placements?publisherId=${row.id}`}
                    aria-label={t('accounts.placementsOf', { brand: row.brand })}
                  >
                    {t('nav.placements')}
                  </Button>
                ) : null}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </AccountsSection>
      <AccountsSection
        id="advertisers-title"
        title={t('accounts.advertisers')}
        testId="campaigns-table"
        columns={[
          t('accounts.brand'),
          t('accounts.user'),
          t('accounts.campaign'),
          t('accounts.price'),
          t('accounts.remaining'),
        ]}
      >
        {accounts.advertisers.flatMap((holder) => [
          <Table.Tr key={`a${holder.id}`} data-testid={`advertiser-${holder.id}`}>
            <Table.Td fw={600} className="user-text">
              {holder.brand}
            </Table.Td>
            <Table.Td>
              <HolderButton holder={holder} onEdit={setUser} />
            </Table.Td>
            <Table.Td colSpan={3}>
              {holder.campaigns.length === 0 ? (
                <Text c="dimmed" size="sm">
                  {t('accounts.noCampaign')}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <RowAction
                  label={t('accounts.editAdvertiser', { brand: holder.brand })}
                  onClick={() => setAdvertiser(holder)}
                >
                  {t('accounts.edit')}
                </RowAction>
                <RowAction
                  label={t('accounts.newCampaignOf', { brand: holder.brand })}
                  onClick={() => setNewCampaignOf(holder)}
                >
                  {t('accounts.newCampaign')}
                </RowAction>
              </Group>
            </Table.Td>
          </Table.Tr>,
          ...holder.campaigns.map((row) => (
            <Table.Tr key={row.id} data-testid={`campaign-${row.id}`}>
              <Table.Td />
              <Table.Td />
              <Table.Td>
                #{row.id} {pricingName(row)}
                {row.isOwl ? (
                  <Badge size="xs" ml="xs" variant="light">
                    {t('accounts.newsletter')}
                  </Badge>
                ) : null}
                {row.isTrial ? (
                  <Badge size="xs" ml="xs">
                    {t('accounts.flags.isTrial')}
                  </Badge>
                ) : null}
              </Table.Td>
              <Table.Td>{format.euros(row.isCpc ? row.cpc : row.cpm)}</Table.Td>
              <Table.Td>{format.number(row.isCpc ? row.remainingClicks : row.remainingImpressions)}</Table.Td>
              <Table.Td>
                <RowAction
                  label={t('accounts.editCampaign', { brand: holder.brand, id: row.id })}
                  onClick={() => setCampaign({ brand: holder.brand, campaign: row })}
                >
                  {t('accounts.edit')}
                </RowAction>
              </Table.Td>
            </Table.Tr>
          )),
        ])}
      </AccountsSection>
      {publisher ? (
        <PublisherEditModal publisher={publisher} onClose={() => setPublisher(null)} onSave={onUpdatePublisher} />
      ) : null}
      {advertiser ? (
        <AdvertiserEditModal advertiser={advertiser} onClose={() => setAdvertiser(null)} onSave={onUpdateAdvertiser} />
      ) : null}
      {newCampaignOf ? (
        <NewCampaignModal
          advertiser={newCampaignOf}
          onClose={() => setNewCampaignOf(null)}
          onCreate={onCreateCampaign}
        />
      ) : null}
      {user ? <UserEditModal user={user} onClose={() => setUser(null)} onSave={onUpdateUser} /> : null}
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
