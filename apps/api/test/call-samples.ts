import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { ads, advertisers, campaigns, publishers, sales, type Database } from '@helium/db';
import type { CallAccess } from '@helium/contracts';

/** The demo tenants the samples act on: Nordvik Outdoor (advertiser@demo.test) and Demo Blog (publisher@demo.test). */
export interface DemoIds {
  campaignId: number;
  adId: number;
  publisherId: number;
  /** The demo's unpaid invoice (seed/billing.ts). */
  invoiceSaleId: number;
}

export async function demoIds(db: Database): Promise<DemoIds> {
  const [advertiser] = await db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
  const [campaign] = await db
    .select()
    .from(campaigns)
    .where(eq(campaigns.advertiserId, advertiser!.id))
    .orderBy(asc(campaigns.id))
    .limit(1);
  const [ad] = await db
    .select()
    .from(ads)
    .where(and(eq(ads.campaignId, campaign!.id), isNull(ads.deletedAt)))
    .orderBy(asc(ads.id))
    .limit(1);
  const [publisher] = await db.select().from(publishers).where(eq(publishers.brand, 'Demo Blog'));
  const [invoice] = await db.select().from(sales).where(eq(sales.method, 'invoice')).orderBy(asc(sales.id)).limit(1);
  return { campaignId: campaign!.id, adId: ad!.id, publisherId: publisher!.id, invoiceSaleId: invoice!.id };
}

/**
 * How the call treats another tenant of the same type (another advertiser, another publisher):
 * `refused` names the first tenant's resource in its body and must be refused (403 or 404) with nothing changed;
 * `ownData` names no resource, so the other tenant simply gets its own data.
 */
export type OtherTenant = 'refused' | 'ownData' | 'none';

export interface CallSample {
  /** A valid body for the first tenant (the demo user of the call's access). */
  body: (ids: DemoIds) => unknown;
  otherTenant: OtherTenant;
  /** Query parameters, for the calls that take them (the card checkout). */
  query?: (ids: DemoIds) => Record<string, string | number>;
  /** Statuses the allowed caller may get with this body besides 2xx: a business refusal, never 401/403/422. */
  allowedRefusals?: number[];
  /** The call signs the caller out: run it on a client of its own. */
  endsSession?: boolean;
}

const noBody = () => ({});

/**
 * One valid body per call, by path. A new call in packages/contracts fails the matrix and fuzz tests until it
 * has its sample here: it is then checked for every role, for another tenant and against random bad input.
 */
export const CALL_SAMPLES: Record<string, CallSample> = {
  '/api/admin/get-invalid-traffic': { body: () => ({ days: 7 }), otherTenant: 'none' },
  '/api/admin/get-placement-publishers': { body: noBody, otherTenant: 'none' },
  '/api/admin/get-placements': { body: (ids) => ({ publisherId: ids.publisherId }), otherTenant: 'none' },
  '/api/admin/update-placements': {
    body: (ids) => ({
      publisherId: ids.publisherId,
      placements: [{ selector: '#sidebar', position: 'inside', formatIds: [3], device: 'all' }],
    }),
    otherTenant: 'none',
  },
  '/api/advertiser/get-campaign-countries': {
    body: (ids) => ({ campaignId: ids.campaignId, from: '2026-01-01', to: '2026-12-31' }),
    otherTenant: 'refused',
  },
  '/api/publisher/get-accounting': { body: noBody, otherTenant: 'ownData' },
  // Refused with a 409 when the balance is under the minimum, the method not set up, or a payout pending.
  '/api/publisher/request-payout': {
    body: () => ({ method: 'paypal', currency: 'eur' }),
    otherTenant: 'none',
    allowedRefusals: [409],
  },
  '/api/publisher/get-stats': { body: noBody, otherTenant: 'ownData' },
  '/api/publisher/get-settings': { body: noBody, otherTenant: 'ownData' },
  '/api/publisher/save-settings': {
    body: () => ({ field: 'paypal', data: { email: 'julien.martin@demo.test' } }),
    otherTenant: 'none',
    // A method the publisher is not authorised to use.
    allowedRefusals: [409],
  },
  '/api/admin/get-payouts': { body: () => ({ state: 'pending' }), otherTenant: 'none' },
  '/api/admin/update-payout': {
    body: () => ({ payoutId: 999_999, action: 'paid', reference: 'MATRIX-1' }),
    otherTenant: 'none',
    allowedRefusals: [404],
  },
  '/api/advertiser/get-purchase': { body: (ids) => ({ campaignExId: ids.campaignId }), otherTenant: 'refused' },
  '/api/advertiser/update-buy': {
    body: (ids) => ({ supercampaign: { id: ids.campaignId, buy_impressions: 100_000 } }),
    otherTenant: 'refused',
  },
  '/api/advertiser/buy-with-bitcoin': {
    body: (ids) => ({ campaignExId: ids.campaignId, buyImpressions: 100_000, price: 237.5 }),
    otherTenant: 'refused',
  },
  '/api/advertiser/buy-with-bill-to-pay': {
    body: (ids) => ({ campaignExId: ids.campaignId, currency: 'eur' }),
    otherTenant: 'refused',
    // The chosen quantity may be under the minimum order of direct billing.
    allowedRefusals: [409],
  },
  '/api/advertiser/apply-coupon': {
    body: (ids) => ({ campaignExId: ids.campaignId, code: 'WELCOME10' }),
    otherTenant: 'refused',
    allowedRefusals: [409],
  },
  '/api/stripe2/create-checkout-session-campaignex': {
    body: noBody,
    query: (ids) => ({ campaignExId: ids.campaignId, currency: 'eur' }),
    otherTenant: 'refused',
    // No quantity chosen yet on the slider.
    allowedRefusals: [422],
  },
  // Stripe's server signs it: without a configured secret or a signature, every caller is refused alike.
  '/api/stripe2/webhook': { body: noBody, otherTenant: 'none', allowedRefusals: [400, 404, 503] },
  '/api/stripe2/get-test-checkout': {
    body: () => ({ sessionId: 'cs_test_local_matrix' }),
    otherTenant: 'none',
    allowedRefusals: [404],
  },
  '/api/stripe2/pay-test-checkout': {
    body: () => ({ sessionId: 'cs_test_local_matrix' }),
    otherTenant: 'none',
    allowedRefusals: [404],
  },
  '/api/advertiser/get-settings': { body: noBody, otherTenant: 'ownData' },
  '/api/advertiser/save-settings': {
    body: () => ({ field: 'billingInformation', data: { address: 'Nordvik Outdoor SAS\n12 rue des Alpes' } }),
    otherTenant: 'none',
  },
  '/api/admin/get-sales': { body: () => ({ state: 'toConfirm' }), otherTenant: 'none' },
  '/api/admin/get-outstanding-invoices': { body: noBody, otherTenant: 'none' },
  '/api/admin/update-sale': {
    body: (ids) => ({ saleId: ids.invoiceSaleId, action: 'confirm' }),
    otherTenant: 'none',
    allowedRefusals: [409],
  },
  '/api/admin/get-coupons': { body: noBody, otherTenant: 'none' },
  '/api/admin/create-coupon': {
    body: () => ({ code: 'MATRIX5', percentOff: 5 }),
    otherTenant: 'none',
    allowedRefusals: [409],
  },
  '/api/common/signin': { body: () => ({ step: 1, email: 'nobody@demo.test' }), otherTenant: 'none' },
  '/api/common/user': { body: noBody, otherTenant: 'ownData' },
  '/api/common/session': { body: noBody, otherTenant: 'ownData' },
  '/api/common/update-user': { body: () => ({ key: 'currency', value: 'eur' }), otherTenant: 'none' },
  // Outside an acting session (the matrix's callers are in their own): 409 (admin-users/acting-as.test.ts).
  '/api/common/stop-acting-as': { body: noBody, otherTenant: 'none', allowedRefusals: [409] },
  '/api/signout': { body: noBody, otherTenant: 'none', endsSession: true },
  '/api/common/signout': { body: noBody, otherTenant: 'none', endsSession: true },
  '/api/common/user-activity': {
    body: () => ({ activityStr: 'advertiserOpensAddCreditsModal' }),
    otherTenant: 'none',
  },
  '/api/admin/get-users': { body: noBody, otherTenant: 'none' },
  '/api/admin/get-stats': { body: () => ({ withUrls: true }), otherTenant: 'none' },
  '/api/admin/run-money-audit': { body: noBody, otherTenant: 'none' },
  '/api/admin/get-money-audit': { body: noBody, otherTenant: 'none' },
  // The alerts of the seed's campaigns: none is low (mail-reports.test.ts has the mails).
  '/api/admin/run-job': { body: () => ({ job: 'low-credit-alerts' }), otherTenant: 'none' },
  // A user that does not exist: 404 (the previews are in mail-reports.test.ts).
  '/api/admin/preview-mail': {
    body: () => ({ kind: 'weekly-publisher', userId: 999_999 }),
    otherTenant: 'none',
    allowedRefusals: [404],
  },
  '/api/common/get-mail-preferences': { body: noBody, otherTenant: 'none' },
  '/api/common/update-mail-preferences': { body: () => ({ weeklyReport: true }), otherTenant: 'none' },
  '/api/admin/get-audit-log': { body: () => ({ action: 'signin', page: 1 }), otherTenant: 'none' },
  // A user that does not exist: 404 (the link's success is in admin-users/signin-as.test.ts).
  '/api/admin/create-signin-link': { body: () => ({ userId: 999_999 }), otherTenant: 'none', allowedRefusals: [404] },
  '/api/advertiser/get-ads': { body: noBody, otherTenant: 'ownData' },
  '/api/advertiser/update-or-delete-ad': {
    body: (ids) => ({ action: 'update', ad: { id: ids.adId, link: 'https://nordvik.example/matrix' } }),
    otherTenant: 'refused',
    allowedRefusals: [409],
  },
  '/api/advertiser/request-to-validate-ad': {
    body: (ids) => ({ adId: ids.adId }),
    otherTenant: 'refused',
    allowedRefusals: [409],
  },
  // Not multipart: the upload answers its own 422 "no file" once the gate let the caller through.
  '/api/advertiser/upload-file': { body: noBody, otherTenant: 'none', allowedRefusals: [422] },
  '/api/admin/get-ad-validations': { body: () => ({ advertiserId: 0 }), otherTenant: 'none' },
  '/api/admin/validate-ad-by-admins': {
    body: (ids) => ({ adId: ids.adId, isAccepted: true }),
    otherTenant: 'none',
    allowedRefusals: [409],
  },
  '/api/admin/request-publishers-to-validate-ad-or-force-validation': {
    body: (ids) => ({ adId: ids.adId, publisherIds: [ids.publisherId], acceptance: 3 }),
    otherTenant: 'none',
    allowedRefusals: [409],
  },
  // Public: the hash id is the credential; one never sent opens nothing.
  '/api/publisher/get-ad-validation': {
    body: () => ({ hashId: 'abcdefghijkl' }),
    otherTenant: 'none',
    allowedRefusals: [404],
  },
  '/api/publisher/update-ad-validation': {
    body: () => ({ hashId: 'abcdefghijkl', acceptance: 1 }),
    otherTenant: 'none',
    allowedRefusals: [404],
  },
  '/api/advertiser/get-campaignex': { body: (ids) => ({ campaignId: ids.campaignId }), otherTenant: 'refused' },
  '/api/locations': { body: () => ({ country: 'BE' }), otherTenant: 'none' },
  '/api/common/search-locations': { body: () => ({ query: 'Vaduz' }), otherTenant: 'none' },
  '/api/advertiser/update-campaign-geolocation': {
    body: (ids) => ({ campaignId: ids.campaignId, geolocation: [] }),
    otherTenant: 'refused',
  },
  '/api/advertiser/update-campaign-pause': {
    body: (ids) => ({ campaignId: ids.campaignId, pauseDailyImpressions: 0 }),
    otherTenant: 'refused',
    allowedRefusals: [409],
  },
  '/api/advertiser/update-campaign-ad-budget': {
    body: (ids) => ({ campaignId: ids.campaignId, ad: { id: ids.adId, budget: 0 } }),
    otherTenant: 'refused',
    allowedRefusals: [409],
  },
  '/api/advertiser/update-campaign-ad-ejection': {
    body: (ids) => ({ campaignId: ids.campaignId, adId: ids.adId, doEject: false }),
    otherTenant: 'refused',
    allowedRefusals: [409],
  },
  '/api/advertiser/update-campaign-ad-activation': {
    body: (ids) => ({ campaignId: ids.campaignId, adId: ids.adId, publisherId: null, isAdActive: true }),
    otherTenant: 'refused',
    allowedRefusals: [409],
  },
  '/api/advertiser/update-campaign-autopilot': {
    body: (ids) => ({ campaignId: ids.campaignId, isAutoPilot: true }),
    otherTenant: 'refused',
    allowedRefusals: [409],
  },
  '/api/advertiser/update-stats-ex': {
    body: (ids) => ({ campaignId: ids.campaignId, statsExDates: null }),
    otherTenant: 'refused',
  },
  '/api/admin/get-activity': { body: () => ({ sortBy: 'publisher' }), otherTenant: 'none' },
  '/api/publisher/get-installation-data': { body: noBody, otherTenant: 'ownData' },
  '/api/publisher/check-install': { body: noBody, otherTenant: 'ownData' },
  // All zeros for both tenants in a quiet minute: performance.test.ts checks its tenancy with traffic.
  '/api/publisher/get-realtime-performance': { body: noBody, otherTenant: 'none' },
  '/api/publisher/get-performance-history': { body: noBody, otherTenant: 'ownData' },
  // Issue 24, onboarding and network settings (admin only): bodies that change nothing, or name no record (404).
  '/api/admin/get-network-settings': { body: noBody, otherTenant: 'none' },
  '/api/admin/update-network-settings': { body: () => ({ statsDaysAveraged: 7 }), otherTenant: 'none' },
  '/api/admin/create-account': {
    body: () => ({
      kind: 'publisher',
      brand: 'Matrix',
      email: 'matrix@demo.test',
      name: 'M',
      locale: 'en',
      newsletter: true,
    }),
    otherTenant: 'none',
  },
  '/api/admin/get-accounts': { body: () => ({ search: 'demo' }), otherTenant: 'none' },
  '/api/admin/update-publisher': { body: (ids) => ({ publisherId: ids.publisherId }), otherTenant: 'none' },
  '/api/admin/update-advertiser': {
    body: () => ({ advertiserId: 999_999 }),
    otherTenant: 'none',
    allowedRefusals: [404],
  },
  '/api/admin/update-advertiser-campaign': { body: (ids) => ({ campaignId: ids.campaignId }), otherTenant: 'none' },
  '/api/admin/create-campaign': {
    body: () => ({ advertiserId: 999_999, isCpc: false, price: 2 }),
    otherTenant: 'none',
    allowedRefusals: [404],
  },
  '/api/admin/grant-campaign-credits': {
    body: () => ({ campaignId: 999_999, kind: 'grant', quantity: 1 }),
    otherTenant: 'none',
    allowedRefusals: [404],
  },
  '/api/admin/update-account-user': { body: () => ({ userId: 999_999 }), otherTenant: 'none', allowedRefusals: [404] },
  // Personal API tokens (features/api-tokens): every user's own; another's id answers 404 (api-tokens.test.ts).
  '/api/common/create-api-token': { body: () => ({ name: 'Matrix' }), otherTenant: 'none' },
  '/api/common/get-api-tokens': { body: noBody, otherTenant: 'none' },
  '/api/common/revoke-api-token': { body: () => ({ id: 999_999 }), otherTenant: 'none', allowedRefusals: [404] },
};

/** Who the matrix signs in for each access (the first tenant), and as the other tenant of the same type. */
/** The path a sample is sent to: the call's, with the sample's query parameters. */
export function samplePath(path: string, ids: DemoIds): string {
  const query = CALL_SAMPLES[path]?.query?.(ids);
  if (!query) return path;
  return `${path}?${new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]))}`;
}

export const DEMO_CALLERS = {
  admin: { email: 'admin@demo.test', account: null },
  publisher: { email: 'publisher@demo.test', account: null },
  advertiser: { email: 'advertiser@demo.test', account: null },
  otherPublisher: { email: 'multi@demo.test', account: { type: 1, brand: 'Cuisine Facile' } },
  otherAdvertiser: { email: 'multi@demo.test', account: { type: 2, brand: 'Atelier Céramique' } },
} as const;

export type MatrixRole = 'signedOut' | 'admin' | 'publisher' | 'advertiser';

/** What each role gets from a call of this access: allowed through the gate, or refused with this status. */
export function expectedGate(access: CallAccess, role: MatrixRole): 'allowed' | 401 | 403 {
  if (access === 'public') return 'allowed';
  if (role === 'signedOut') return 401;
  if (access === 'signedIn' || access === role) return 'allowed';
  if (access === 'advertiserOrAdmin' && (role === 'advertiser' || role === 'admin')) return 'allowed';
  return 403;
}

/**
 * The timed jobs' own records (on PostgreSQL): they change on the scheduler's clock, whatever a call does.
 */
const CHANGED_BY_THE_SCHEDULER = ['scheduled_jobs'];

/** The rows of a statement's answer, from either driver (node-postgres answers `{ rows }`). */
function rowsOf<Row>(answer: unknown): Row[] {
  return Array.isArray(answer) ? (answer as Row[]) : (answer as { rows: Row[] }).rows;
}

/**
 * A fingerprint of every table's rows, so a test can say "nothing changed" without knowing what a call
 * would have touched: each table's row count and a hash of its rows in a stable order, all tables in one statement
 * (a statement per table cost three times the CPU on the embedded database, where each is a call into its thread).
 */
export async function databaseFingerprint(db: Database, except: string[] = []): Promise<Record<string, string>> {
  const skipped = [...except, ...CHANGED_BY_THE_SCHEDULER];
  const names = rowsOf<{ table_name: string }>(
    await db.execute(
      sql.raw(
        `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
      ),
    ),
  )
    .map((row) => row.table_name)
    .filter((table) => !skipped.includes(table));
  if (names.length === 0) return {};
  const perTable = names.map(
    (name) =>
      `select '${name}' as name, count(*)::text || ':' || coalesce(md5(string_agg(h, '' order by h)), '') as f ` +
      `from (select md5(t::text) as h from "${name}" t) hashed`,
  );
  const rows = rowsOf<{ name: string; f: string }>(await db.execute(sql.raw(perTable.join(' union all '))));
  return Object.fromEntries(rows.map((row) => [row.name, row.f]));
}
