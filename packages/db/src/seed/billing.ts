import { eq, sql } from 'drizzle-orm';
import { DAY_MS, INVOICE_PAYMENT_DAYS } from '@helium/domain';
import type { Database } from '../client.ts';
import {
  advertisers,
  campaignCredits,
  campaigns,
  coupons,
  invoiceNumbers,
  ledgerEntries,
  sales,
  users,
} from '../schema/index.ts';
import { DEMO_EMAILS, type DemoAccounts } from './users.ts';

/**
 * Money in for the demo: the demo campaign may be paid by card, Bitcoin or invoice (its largest purchase reaches
 * the minimum order of direct billing); three past sales, one of each kind (card paid, Bitcoin confirmed, invoice
 * unpaid); a trial advertiser with free credits; the coupon WELCOME10. Then every campaign's opening entry in
 * the ledger of credits, so that remaining = credited - consumed holds (docs/billing.md).
 */
export async function seedBilling(db: Database, accounts: DemoAccounts, now = new Date()): Promise<void> {
  await db
    .update(campaigns)
    .set({ canBuyInBtc: true, canBillToPay: true, buyMax: 2_000_000, buyStep: 100_000 })
    .where(eq(campaigns.id, accounts.demoCampaignId));

  const past = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const base = {
    advertiserId: accounts.demoAdvertiserId,
    campaignId: accounts.demoCampaignId,
    quantity: 100_000,
    isCpc: false,
    fullPrice: 250_000_000,
    billingInformation: 'Nordvik Outdoor SAS\n12 rue des Alpes\n38000 Grenoble\nFrance',
    createdBy: accounts.advertiserUserId,
  };
  const [card, bitcoin, invoice] = await db
    .insert(sales)
    .values([
      {
        ...base,
        method: 'card',
        state: 'paid',
        amount: 250_000_000,
        currency: 'eur',
        amountInCurrency: 250_000_000,
        stripeSessionId: 'cs_test_demo_paid',
        paidAt: past(40),
        createdAt: past(40),
      },
      {
        ...base,
        method: 'bitcoin',
        state: 'paid',
        discountBp: 500,
        amount: 237_500_000,
        currency: 'btc',
        amountInCurrency: 2_896_341_463,
        rate: '82000.00',
        paidAt: past(24),
        createdAt: past(25),
      },
      {
        ...base,
        quantity: 500_000,
        fullPrice: 1_250_000_000,
        method: 'invoice',
        state: 'unpaid',
        discountBp: 500,
        amount: 1_187_500_000,
        currency: 'eur',
        amountInCurrency: 1_187_500_000,
        invoiceNumber: 1,
        dueAt: new Date(past(5).getTime() + INVOICE_PAYMENT_DAYS * DAY_MS),
        createdAt: past(5),
      },
    ])
    .returning();
  if (!card || !bitcoin || !invoice) throw new Error('Demo sales missing');
  await db.update(invoiceNumbers).set({ lastNumber: 1 }).where(eq(invoiceNumbers.id, 1));
  for (const sale of [card, bitcoin, invoice]) {
    const note = `${sale.method} sale ${sale.id}`;
    const at = sale.paidAt ?? sale.createdAt;
    await db.insert(campaignCredits).values({
      campaignId: sale.campaignId,
      kind: 'purchase',
      impressions: sale.quantity,
      saleId: sale.id,
      note,
      createdAt: at,
    });
    await db.insert(ledgerEntries).values({
      accountType: 'advertiser',
      accountId: sale.advertiserId,
      kind: 'purchase',
      amount: sale.amount,
      note,
      createdAt: at,
    });
  }

  await db.insert(coupons).values({ code: 'WELCOME10', percentOffBp: 1000, createdBy: accounts.adminUserId });

  // A trial advertiser: its free credits are an entry of kind trial.
  const [trialUser] = await db
    .insert(users)
    .values({ name: 'Léa Moreau', email: DEMO_EMAILS.trial, locale: 'fr', currentType: 2, agreedAt: past(3) })
    .returning();
  const [trialAdvertiser] = await db
    .insert(advertisers)
    .values({
      userId: trialUser!.id,
      brand: 'Maison Verte',
      billingInformation: 'Maison Verte\n5 place du Marché\n69002 Lyon',
    })
    .returning();
  const [trialCampaign] = await db
    .insert(campaigns)
    .values({ advertiserId: trialAdvertiser!.id, cpm: 2_000_000, isTrial: true, remainingImpressions: 50_000 })
    .returning();
  await db.update(users).set({ currentAccountId: trialAdvertiser!.id }).where(eq(users.id, trialUser!.id));
  await db.insert(campaignCredits).values({
    campaignId: trialCampaign!.id,
    kind: 'trial',
    impressions: 50_000,
    note: 'trial credits',
    createdBy: accounts.adminUserId,
  });

  await openCampaignCredits(db);
}

/**
 * Each campaign's credits not yet in the ledger of credits become its opening entry: what remains plus what
 * delivery consumed, less what the ledger already holds.
 */
export async function openCampaignCredits(db: Pick<Database, 'execute'>): Promise<void> {
  await db.execute(sql`
    INSERT INTO campaign_credits (campaign_id, kind, impressions, clicks, note)
    SELECT c.id, 'opening',
      CASE WHEN c.is_cpc THEN 0 ELSE c.remaining_impressions + coalesce(d.impressions, 0) - coalesce(cr.impressions, 0) END,
      CASE WHEN c.is_cpc THEN c.remaining_clicks + coalesce(d.clicks, 0) - coalesce(cr.clicks, 0) ELSE 0 END,
      'Credits before the ledger of credits'
    FROM campaigns c
    LEFT JOIN (SELECT campaign_id, sum(impressions) AS impressions, sum(clicks) AS clicks
      FROM daily_ad_stats GROUP BY campaign_id) d ON d.campaign_id = c.id
    LEFT JOIN (SELECT campaign_id, sum(impressions) AS impressions, sum(clicks) AS clicks
      FROM campaign_credits GROUP BY campaign_id) cr ON cr.campaign_id = c.id
    WHERE CASE WHEN c.is_cpc THEN c.remaining_clicks + coalesce(d.clicks, 0) - coalesce(cr.clicks, 0)
      ELSE c.remaining_impressions + coalesce(d.impressions, 0) - coalesce(cr.impressions, 0) END <> 0`);
}
