import { and, asc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { advertisers, auditLog, campaigns, publishers, users, type Database } from '@helium/db';
import { eurosToMicros, microsToEuros, pricingName, type Locale } from '@helium/domain';
import { USER_TYPE } from '@helium/domain/roles';
import type {
  TAdminAdvertiser,
  TAdminCampaign,
  TAdminPublisher,
  TCreateAccountRequest,
  TGrantCampaignCreditsRequest,
  TIssueKey,
  TIssueValues,
  TUpdateAdvertiserCampaignRequest,
  TUpdateAdvertiserRequest,
  TUpdatePublisherRequest,
  ZCreateAccountRequestSchema,
} from '@helium/contracts';
import type { z } from 'zod';
import { fieldRefusal, HttpError, notFound } from '../../http/errors.ts';
import { holderId, salesRepId } from './account-users.ts';
import { addCredits } from '../billing/credits-ledger.ts';
import { requireKnownLocations } from '../locations/campaign-geolocation.ts';
import { geolocationSummary } from '../locations/location-catalogue.ts';

/*
 * Onboarding (issue 24, part 3): admins create publishers and advertisers (and their users), edit them and their
 * campaigns, and grant credits through the credits ledger. Each change is one transaction with its audit row;
 * none of these calls can make a user an admin or take it away.
 */

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
type CreateAccount = z.output<typeof ZCreateAccountRequestSchema>;

export interface AdminActor {
  userId: number;
  ip: string | null;
  now: Date;
}

/** How many accounts of each kind get-accounts sends. */
export const ACCOUNTS_PAGE = 200;

/** Payout methods a new publisher may use unless the admin says otherwise. */
const DEFAULT_PAYOUT_METHODS = ['paypal', 'wire'];

/** A 422, naming the field at fault when there is one (so the screen puts it there). */
const invalid = (status: string, message: string, field?: { path: string; key: TIssueKey; values?: TIssueValues }) =>
  field ? fieldRefusal(422, status, message, field) : new HttpError(422, status, message);

async function audit(
  tx: Tx,
  actor: AdminActor,
  action: string,
  targetType: string,
  targetId: number,
  details: Record<string, unknown>,
) {
  await tx.insert(auditLog).values({
    actorUserId: actor.userId,
    action,
    targetType,
    targetId,
    details,
    ip: actor.ip,
    createdAt: actor.now,
  });
}

const bpOf = (pct: number | null | undefined) =>
  pct === undefined ? undefined : pct === null ? null : Math.round(pct * 100);
const microsOf = (euros: number | null | undefined) =>
  euros === undefined ? undefined : euros === null ? null : eurosToMicros(euros);

export interface CreatedAccount {
  kind: 'publisher' | 'advertiser';
  accountId: number;
  userId: number;
  userCreated: boolean;
  campaignId: number | null;
  /** For the welcome mail of a new user. */
  user: { email: string; name: string; locale: 'en' | 'fr' };
}

/**
 * Creates a publisher or an advertiser (with its first campaign and trial credits), held by the user of the e-mail,
 * created when new (its type and account in use the new account, terms to agree at its first sign-in). An existing
 * user keeps its name, language and admin flag.
 */
export async function createAccount(db: Database, body: TCreateAccountRequest, actor: AdminActor) {
  const request = body as CreateAccount;
  if (request.kind === 'publisher' && !request.domain && !request.newsletter) {
    throw invalid('domainOrNewsletter', 'A publisher needs a web domain or is a newsletter (newsletter: true).', {
      path: 'domain',
      key: 'domainNeeded',
    });
  }
  try {
    return await createAccountOnce(db, request, actor);
  } catch (error) {
    // Two creations of one new e-mail at once: the unique index on lower(email) refuses the second user.
    if (
      (error as { code?: string; cause?: { code?: string } }).code === '23505' ||
      (error as { cause?: { code?: string } }).cause?.code === '23505'
    ) {
      throw new HttpError(409, 'emailTaken', 'A user with this e-mail was created meanwhile: try again.');
    }
    throw error;
  }
}

async function createAccountOnce(db: Database, request: CreateAccount, actor: AdminActor) {
  return db.transaction(async (tx): Promise<CreatedAccount> => {
    const salesRep = await salesRepId(tx, request.salesRep);
    const type = request.kind === 'publisher' ? USER_TYPE.publisher : USER_TYPE.advertiser;
    const [existing] = await tx
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${request.email}`);
    let user = existing;
    if (!user) {
      // A unique index on lower(email) refuses a second user of the same e-mail created at the same time.
      [user] = await tx
        .insert(users)
        .values({
          name: request.name,
          email: request.email,
          locale: request.locale,
          isAdmin: false,
          currentType: type,
          createdAt: actor.now,
        })
        .returning();
    }
    let accountId: number;
    let campaignId: number | null = null;
    if (request.kind === 'publisher') {
      const [row] = await tx
        .insert(publishers)
        .values({
          userId: user!.id,
          brand: request.brand,
          isWeb: Boolean(request.domain),
          isOwl: Boolean(request.newsletter),
          domain: request.domain ?? null,
          revenueShareBp: bpOf(request.revenueSharePct) ?? null,
          minBalanceForPayout: microsOf(request.minBalanceForPayout) ?? null,
          authorizedPayoutMethods: request.authorizedPayoutMethods ?? DEFAULT_PAYOUT_METHODS,
          salesRepUserId: salesRep ?? null,
          createdAt: actor.now,
        })
        .returning({ id: publishers.id });
      accountId = row!.id;
    } else {
      const [row] = await tx
        .insert(advertisers)
        .values({ userId: user!.id, brand: request.brand, salesRepUserId: salesRep ?? null, createdAt: actor.now })
        .returning({ id: advertisers.id });
      accountId = row!.id;
      const { isCpc, isOwl, price } = request.campaign;
      const trial = request.trialCredits ?? 0;
      const [campaign] = await tx
        .insert(campaigns)
        .values({
          advertiserId: accountId,
          isCpc,
          isOwl,
          cpm: isCpc ? 0 : eurosToMicros(price),
          cpc: isCpc ? eurosToMicros(price) : 0,
          isTrial: trial > 0,
          createdAt: actor.now,
        })
        .returning({ id: campaigns.id });
      campaignId = campaign!.id;
      if (trial > 0) {
        await addCredits(tx, {
          campaignId,
          isCpc,
          kind: 'trial',
          quantity: trial,
          note: 'trial credits at onboarding',
          createdBy: actor.userId,
          createdAt: actor.now,
        });
      }
    }
    if (!existing) {
      await tx.update(users).set({ currentAccountId: accountId }).where(eq(users.id, user!.id));
    }
    await audit(tx, actor, 'account.create', request.kind, accountId, {
      userId: user!.id,
      userCreated: !existing,
      brand: request.brand,
      ...(campaignId ? { campaignId, trialCredits: request.kind === 'advertiser' ? request.trialCredits : 0 } : {}),
    });
    return {
      kind: request.kind,
      accountId,
      userId: user!.id,
      userCreated: !existing,
      campaignId,
      user: { email: user!.email, name: user!.name, locale: user!.locale },
    };
  });
}

/** Publishers and advertisers (with their campaigns) whose brand or holder's e-mail or name contains the search. */
export async function listAccounts(db: Database, search: string, locale: Locale) {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rep = sql<string | null>`(select email from users r where r.id = ${publishers.salesRepUserId})`;
  const publisherRows = await db
    .select({ publisher: publishers, email: users.email, name: users.name, locale: users.locale, salesRep: rep })
    .from(publishers)
    .innerJoin(users, eq(users.id, publishers.userId))
    .where(
      search
        ? or(ilike(publishers.brand, pattern), ilike(users.email, pattern), ilike(users.name, pattern))
        : undefined,
    )
    .orderBy(asc(publishers.brand), asc(publishers.id))
    .limit(ACCOUNTS_PAGE + 1);
  const advertiserRep = sql<string | null>`(select email from users r where r.id = ${advertisers.salesRepUserId})`;
  const advertiserRows = await db
    .select({
      advertiser: advertisers,
      email: users.email,
      name: users.name,
      locale: users.locale,
      salesRep: advertiserRep,
    })
    .from(advertisers)
    .innerJoin(users, eq(users.id, advertisers.userId))
    .where(
      search
        ? or(ilike(advertisers.brand, pattern), ilike(users.email, pattern), ilike(users.name, pattern))
        : undefined,
    )
    .orderBy(asc(advertisers.brand), asc(advertisers.id))
    .limit(ACCOUNTS_PAGE + 1);
  const advertiserIds = advertiserRows.slice(0, ACCOUNTS_PAGE).map((row) => row.advertiser.id);
  const campaignRows =
    advertiserIds.length > 0
      ? await db
          .select()
          .from(campaigns)
          .where(inArray(campaigns.advertiserId, advertiserIds))
          .orderBy(asc(campaigns.id))
      : [];
  const publishersView: TAdminPublisher[] = publisherRows.slice(0, ACCOUNTS_PAGE).map((row) => ({
    id: row.publisher.id,
    brand: row.publisher.brand,
    isWeb: row.publisher.isWeb,
    isOwl: row.publisher.isOwl,
    domain: row.publisher.domain,
    isInstalled: row.publisher.isInstalled,
    revenueSharePct: row.publisher.revenueShareBp === null ? null : row.publisher.revenueShareBp / 100,
    minBalanceForPayout:
      row.publisher.minBalanceForPayout === null ? null : microsToEuros(row.publisher.minBalanceForPayout),
    authorizedPayoutMethods: row.publisher.authorizedPayoutMethods as TAdminPublisher['authorizedPayoutMethods'],
    salesRep: row.salesRep,
    userId: row.publisher.userId,
    email: row.email,
    name: row.name,
    locale: row.locale,
  }));
  // Most campaigns target everywhere; the others are named in the admin's language (one line each).
  const summaries = new Map<number, string>();
  for (const row of campaignRows) {
    if (row.geoTargets.length > 0) summaries.set(row.id, await geolocationSummary(row.geoTargets, locale));
  }
  const advertisersView: TAdminAdvertiser[] = advertiserRows.slice(0, ACCOUNTS_PAGE).map((row) => ({
    id: row.advertiser.id,
    brand: row.advertiser.brand,
    salesRep: row.salesRep,
    invoiceLimit: row.advertiser.invoiceLimit === null ? null : microsToEuros(row.advertiser.invoiceLimit),
    userId: row.advertiser.userId,
    email: row.email,
    name: row.name,
    locale: row.locale,
    campaigns: campaignRows
      .filter((c) => c.advertiserId === row.advertiser.id)
      .map((c) => campaignView(c, summaries.get(c.id) ?? '')),
  }));
  return {
    publishers: publishersView,
    advertisers: advertisersView,
    truncated: publisherRows.length > ACCOUNTS_PAGE || advertiserRows.length > ACCOUNTS_PAGE,
  };
}

function campaignView(row: typeof campaigns.$inferSelect, geolocationStr: string): TAdminCampaign {
  return {
    id: row.id,
    geolocation: row.geoTargets,
    geolocationStr,
    isCpc: row.isCpc,
    isOwl: row.isOwl,
    cpm: microsToEuros(row.cpm),
    cpc: microsToEuros(row.cpc),
    remainingImpressions: row.remainingImpressions,
    remainingClicks: row.remainingClicks,
    isTrial: row.isTrial,
    canBuyInBtc: row.canBuyInBtc,
    canBillToPay: row.canBillToPay,
    isAutoPilotVisible: row.isAutoPilotVisible,
    canActivateAdsByPublisher: row.canActivateAdsByPublisher,
    canBudget: row.canBudget,
    doNotDiscount: row.doNotDiscount,
  };
}

/** The columns that differ, old and new, for the audit row. */
function differences<T extends Record<string, unknown>>(before: T, set: Partial<T>) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, value] of Object.entries(set)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) changes[key] = { from: before[key], to: value };
  }
  return changes;
}

/** Edits a publisher's fields (any subset); a web publisher keeps a domain. Answers whether anything changed. */
export async function updatePublisher(db: Database, request: TUpdatePublisherRequest, actor: AdminActor) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(publishers).where(eq(publishers.id, request.publisherId)).for('update');
    if (!before) throw notFound('No such publisher.');
    const set: Partial<typeof publishers.$inferInsert> = {};
    if (request.brand !== undefined) set.brand = request.brand;
    if (request.domain !== undefined) set.domain = request.domain;
    if (request.isWeb !== undefined) set.isWeb = request.isWeb;
    if (request.isOwl !== undefined) set.isOwl = request.isOwl;
    if (request.revenueSharePct !== undefined) set.revenueShareBp = bpOf(request.revenueSharePct);
    if (request.minBalanceForPayout !== undefined) set.minBalanceForPayout = microsOf(request.minBalanceForPayout);
    if (request.authorizedPayoutMethods !== undefined) {
      set.authorizedPayoutMethods = [...new Set(request.authorizedPayoutMethods)];
    }
    const rep = await salesRepId(tx, request.salesRep);
    if (rep !== undefined) set.salesRepUserId = rep;
    const holder = await holderId(tx, request.holderEmail);
    if (holder !== undefined) set.userId = holder;
    const after = { ...before, ...set };
    if (after.isWeb && !after.domain) {
      throw invalid('domainOrNewsletter', 'A web publisher needs a domain.', { path: 'domain', key: 'domainNeeded' });
    }
    if (!after.isWeb && !after.isOwl) throw invalid('domainOrNewsletter', 'A publisher is a website or a newsletter.');
    const changes = differences(before, set);
    if (Object.keys(changes).length === 0) return false;
    await tx.update(publishers).set(set).where(eq(publishers.id, before.id));
    await audit(tx, actor, 'publisher.update', 'publisher', before.id, { changes });
    return true;
  });
}

export async function updateAdvertiser(db: Database, request: TUpdateAdvertiserRequest, actor: AdminActor) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(advertisers).where(eq(advertisers.id, request.advertiserId)).for('update');
    if (!before) throw notFound('No such advertiser.');
    const set: Partial<typeof advertisers.$inferInsert> = {};
    if (request.brand !== undefined) set.brand = request.brand;
    if (request.invoiceLimit !== undefined) set.invoiceLimit = microsOf(request.invoiceLimit);
    const rep = await salesRepId(tx, request.salesRep);
    if (rep !== undefined) set.salesRepUserId = rep;
    const holder = await holderId(tx, request.holderEmail);
    if (holder !== undefined) set.userId = holder;
    const changes = differences(before, set);
    if (Object.keys(changes).length === 0) return false;
    await tx.update(advertisers).set(set).where(eq(advertisers.id, before.id));
    await audit(tx, actor, 'advertiser.update', 'advertiser', before.id, { changes });
    return true;
  });
}

/** Edits a campaign's prices, flags and geotargeting; its pricing model (CPM or CPC) and credits stay. */
export async function updateCampaign(db: Database, request: TUpdateAdvertiserCampaignRequest, actor: AdminActor) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(campaigns).where(eq(campaigns.id, request.campaignId)).for('update');
    if (!before) throw notFound('No such campaign.');
    const { campaignId: _id, cpm, cpc, geolocation, ...flags } = request;
    const set: Partial<typeof campaigns.$inferInsert> = { ...flags };
    if (geolocation !== undefined) {
      set.geoTargets = [...new Set(geolocation)];
      await requireKnownLocations(set.geoTargets);
    }
    if (cpm !== undefined) set.cpm = eurosToMicros(cpm);
    if (cpc !== undefined) set.cpc = eurosToMicros(cpc);
    const after = { ...before, ...set };
    if ((after.isCpc ? after.cpc : after.cpm) <= 0) {
      throw invalid('invalidPrice', `A ${pricingName(after)} campaign needs a price above 0.`, {
        path: after.isCpc ? 'cpc' : 'cpm',
        key: 'above',
        values: { min: 0 },
      });
    }
    const changes = differences(before, set);
    if (Object.keys(changes).length === 0) return false;
    await tx.update(campaigns).set(set).where(eq(campaigns.id, before.id));
    await audit(tx, actor, 'campaign.update', 'campaign', before.id, { changes });
    return true;
  });
}

export async function createCampaign(
  db: Database,
  request: { advertiserId: number; isCpc: boolean; isOwl: boolean; price: number },
  actor: AdminActor,
) {
  // The contract refuses it first; kept for any other caller.
  if (request.price <= 0) {
    throw invalid('invalidPrice', 'A campaign needs a price above 0.', {
      path: 'price',
      key: 'above',
      values: { min: 0 },
    });
  }
  return db.transaction(async (tx) => {
    const [advertiser] = await tx
      .select({ id: advertisers.id })
      .from(advertisers)
      .where(eq(advertisers.id, request.advertiserId));
    if (!advertiser) throw notFound('No such advertiser.');
    const [row] = await tx
      .insert(campaigns)
      .values({
        advertiserId: advertiser.id,
        isCpc: request.isCpc,
        isOwl: request.isOwl,
        cpm: request.isCpc ? 0 : eurosToMicros(request.price),
        cpc: request.isCpc ? eurosToMicros(request.price) : 0,
        createdAt: actor.now,
      })
      .returning({ id: campaigns.id });
    await audit(tx, actor, 'campaign.create', 'campaign', row!.id, { ...request });
    return row!.id;
  });
}

/** Trial credits or another grant: an entry of the credits ledger and the campaign's remaining count. */
export async function grantCredits(db: Database, request: TGrantCampaignCreditsRequest, actor: AdminActor) {
  return db.transaction(async (tx) => {
    const [campaign] = await tx.select().from(campaigns).where(eq(campaigns.id, request.campaignId));
    if (!campaign) throw notFound('No such campaign.');
    await addCredits(tx, {
      campaignId: campaign.id,
      isCpc: campaign.isCpc,
      kind: request.kind,
      quantity: request.quantity,
      note: request.note ?? null,
      createdBy: actor.userId,
      createdAt: actor.now,
    });
    if (request.kind === 'trial' && !campaign.isTrial) {
      await tx.update(campaigns).set({ isTrial: true }).where(eq(campaigns.id, campaign.id));
    }
    await audit(tx, actor, 'campaign.grantCredits', 'campaign', campaign.id, { ...request });
    const [after] = await tx
      .select({ impressions: campaigns.remainingImpressions, clicks: campaigns.remainingClicks })
      .from(campaigns)
      .where(eq(campaigns.id, campaign.id));
    return campaign.isCpc ? after!.clicks : after!.impressions;
  });
}

/** A user's name, e-mail and language; its admin flag is not a field of this call. */
export async function updateAccountUser(
  db: Database,
  request: { userId: number; name?: string; email?: string; locale?: 'en' | 'fr' },
  actor: AdminActor,
) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.id, request.userId)).for('update');
    if (!before) throw notFound('No such user.');
    const { userId: _id, ...set } = request;
    if (set.email !== undefined && set.email !== before.email.toLowerCase()) {
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${set.email}`, sql`${users.id} <> ${before.id}`));
      if (taken) throw new HttpError(409, 'emailTaken', 'Another user has this e-mail.');
    }
    const changes = differences(before, set);
    if (Object.keys(changes).length === 0) return false;
    await tx.update(users).set(set).where(eq(users.id, before.id));
    await audit(tx, actor, 'user.update', 'user', before.id, { changes });
    return true;
  });
}
