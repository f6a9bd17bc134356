import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { advertisers, campaigns, publishers, sentMails, users } from '@helium/db';
import { DAY_MS } from '@helium/domain';
import { formatMoney, formatNumber, formatPercent } from '@helium/domain/format';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import type { CaughtMail } from '../../../test/smtp-catcher.ts';

/*
 * Reports by e-mail (issue 35, point 4; docs/emails.md): the weekly summaries, the low-credit alert, the one-click
 * unsubscribe link, Run now and the preview. The tests run in order: the last one moves the clock a week on.
 */

let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await buildTestApp();
  admin = t.client();
  await admin.signIn('admin@demo.test');
});
afterAll(async () => {
  await t?.close();
});

const runJob = (job: string, client = admin) => client.post('/api/admin/run-job', { job });

/** The distinct e-mails of the users holding accounts of that table. */
async function holders(table: typeof advertisers | typeof publishers): Promise<string[]> {
  const rows = await t.db
    .selectDistinct({ email: users.email })
    .from(users)
    .innerJoin(table, eq(table.userId, users.id));
  return rows.map((row) => row.email).sort();
}

const isWeekly = (mail: CaughtMail) => /your week of|votre semaine du/.test(mail.subject);
const mailsTo = (mails: CaughtMail[], email: string) => mails.filter((mail) => mail.to.includes(email));
const unsubscribeLink = (mail: CaughtMail) => /<(http[^>]+)>/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1] ?? '';
const pathOf = (url: string) => new URL(url).pathname;

async function preferences(email: string) {
  const [row] = await t.db
    .select({ weekly: users.weeklyReportMail, lowCredit: users.lowCreditMail })
    .from(users)
    .where(eq(users.email, email));
  return row!;
}

let weekly: CaughtMail[] = [];
let week = '';

describe('reports by e-mail', () => {
  it('refuses run-job to non-admins (403) and signed-out callers (401), and a bad job name (422), sending nothing', async () => {
    const before = t.smtp.messages.length;
    const advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test');
    const publisher = t.client();
    await publisher.signIn('publisher@demo.test');
    const signedIn = t.smtp.messages.length;
    expect((await runJob('weekly-reports', advertiser)).statusCode).toBe(403);
    expect((await runJob('low-credit-alerts', publisher)).statusCode).toBe(403);
    expect((await runJob('weekly-reports', t.client())).statusCode).toBe(401);
    const bad = await runJob('monthly-reports');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().issues[0].path).toBe('job');
    expect((await admin.post('/api/admin/run-job', {})).statusCode).toBe(422);
    expect(t.smtp.messages.length).toBe(signedIn);
    expect(signedIn - before).toBe(2);
    expect(await t.db.select().from(sentMails)).toEqual([]);
  });

  it('sends each advertiser and each publisher of the seed one summary of last week, with the unsubscribe headers', async () => {
    const before = t.smtp.messages.length;
    const response = await runJob('weekly-reports');
    expect(response.statusCode).toBe(200);
    const run = response.json();
    const advertiserEmails = await holders(advertisers);
    const publisherEmails = await holders(publishers);
    expect(run.sent).toEqual({
      'weekly-advertiser': advertiserEmails.length,
      'weekly-publisher': publisherEmails.length,
      'low-credit': 0,
    });
    expect(run.failed).toBe(0);
    // The week before the current one, Monday to Sunday.
    week = run.week;
    expect(new Date(`${week}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(Date.parse(`${week}T00:00:00Z`)).toBeLessThanOrEqual(t.clock.now().getTime() - 7 * DAY_MS);
    expect(Date.parse(`${week}T00:00:00Z`)).toBeGreaterThan(t.clock.now().getTime() - 14 * DAY_MS - 10 * 60_000);

    weekly = t.smtp.messages.slice(before);
    expect(weekly.every(isWeekly)).toBe(true);
    expect(weekly).toHaveLength(advertiserEmails.length + publisherEmails.length);
    for (const email of new Set([...advertiserEmails, ...publisherEmails])) {
      const expected = Number(advertiserEmails.includes(email)) + Number(publisherEmails.includes(email));
      expect(mailsTo(weekly, email), email).toHaveLength(expected);
    }
    expect(mailsTo(weekly, 'admin@demo.test')).toEqual([]);
    for (const mail of weekly) {
      expect(mail.headers['list-unsubscribe']).toMatch(/^<http:\/\/[^>]+\/unsubscribe\/\d+\.weekly\.[\w-]{43}>$/);
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      // The same link in both parts.
      expect(mail.text).toContain(unsubscribeLink(mail));
      expect(mail.html).toContain(unsubscribeLink(mail));
    }
    expect(await t.db.select().from(sentMails)).toHaveLength(weekly.length);
  });

  it("gives an advertiser's campaign the figures of its stats call over that week", async () => {
    const sunday = new Date(Date.parse(`${week}T00:00:00Z`) + 6 * DAY_MS).toISOString().slice(0, 10);
    const client = t.client();
    await client.signIn('advertiser@demo.test');
    const first = (await client.post('/api/advertiser/get-campaignex', {})).json();
    const range = await client.post('/api/advertiser/update-stats-ex', {
      campaignId: first.id,
      statsExDates: [week, sunday],
    });
    expect(range.statusCode).toBe(200);
    const campaign = (await client.post('/api/advertiser/get-campaignex', { campaignId: first.id })).json();
    const total = campaign.stats.total;
    expect(total.impressions).toBeGreaterThan(0);
    const [mail] = mailsTo(weekly, 'advertiser@demo.test');
    expect(mail!.language).toBe('en');
    expect(mail!.text).toContain(`campaign #${campaign.id} (CPM)`);
    expect(mail!.text).toContain(`Impressions: ${formatNumber(total.impressions, 'en')}\n`);
    expect(mail!.text).toContain(`Clicks: ${formatNumber(total.clicks, 'en')}\n`);
    expect(mail!.text).toContain(`CTR: ${formatPercent(total.ctr, 'en', 2)}\n`);
    expect(mail!.text).toContain(`Leads: ${formatNumber(total.leads, 'en')}\n`);
    expect(mail!.text).toContain(`Spend: ${formatMoney(total.costs, { locale: 'en' })}\n`);
    expect(mail!.text).toContain(
      `Credits left: ${formatNumber(total.remainingImpressions, 'en')} impressions (${formatMoney(
        total.remainingMaxBudget ?? campaign.ads[0].stats.total.remainingMaxBudget,
        { locale: 'en' },
      )})`,
    );
    expect(mail!.text).toMatch(/Days to empty: about [\d,.]+ days at the last 7 days' pace/);
    expect(mail!.html).toContain(`Impressions: ${formatNumber(total.impressions, 'en')}`);
  });

  it("gives a publisher the revenue of its stats call over that week, Accounting's balance, and whether it can be paid", async () => {
    const sunday = new Date(Date.parse(`${week}T00:00:00Z`) + 6 * DAY_MS).toISOString().slice(0, 10);
    const client = t.client();
    await client.signIn('publisher@demo.test');
    const stats = (await client.post('/api/publisher/get-stats', {})).json();
    const days = stats.newSummaryDays.filter((day: { day: string }) => day.day >= week && day.day <= sunday);
    expect(days.length).toBeGreaterThan(0);
    const impressions = days.reduce((sum: number, day: { totalImpressions: number }) => sum + day.totalImpressions, 0);
    const revenue = days.reduce((sum: number, day: { totalRevenue: number }) => sum + day.totalRevenue, 0);
    const accounting = (await client.post('/api/publisher/get-accounting', {})).json();
    const [mail] = mailsTo(weekly, 'publisher@demo.test');
    const block = mail!.text.split('\n\n').find((paragraph) => paragraph.startsWith(stats.publisher.brand))!;
    expect(block).toContain(`Impressions: ${formatNumber(impressions, 'en')}\n`);
    expect(block).toContain(`Revenue: ${formatMoney(revenue, { locale: 'en' })}\n`);
    expect(block).toContain(`Balance: ${formatMoney(accounting.balance, { locale: 'en' })}\n`);
    expect(block).toContain(accounting.canPayout ? 'You can request a payout.' : 'payout');
    // Each publisher the user holds has its own lines.
    expect(mail!.text).toContain('La Lettre Tech');
  });

  it('writes in French to a French user', async () => {
    const mails = mailsTo(weekly, 'multi@demo.test');
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.language).toBe('fr');
      expect(mail.subject).toContain('votre semaine du');
      expect(mail.text).toMatch(/^Bonjour Marc Lefèvre,/);
      expect(mail.html).toContain('<html lang="fr">');
    }
    expect(mails.map((mail) => mail.text).join('\n')).toMatch(/Dépenses\u202f: [\d\s\u202f\u00a0,]+\s€/);
    expect(mails.map((mail) => mail.text).join('\n')).toMatch(/Revenus\u202f: [\d\s\u202f\u00a0,]+\s€/);
  });

  it('sends nothing new on a second run the same week', async () => {
    const before = t.smtp.messages.length;
    const rows = (await t.db.select().from(sentMails)).length;
    const run = (await runJob('weekly-reports')).json();
    expect(run.sent).toEqual({ 'weekly-advertiser': 0, 'weekly-publisher': 0, 'low-credit': 0 });
    expect(run.week).toBe(week);
    expect(t.smtp.messages.length).toBe(before);
    expect((await t.db.select().from(sentMails)).length).toBe(rows);
  });

  it('alerts once, not twice, about a campaign nearly out of credits, with a link to Add credits', async () => {
    const [nordvik] = await t.db
      .select({ id: campaigns.id, advertiserId: campaigns.advertiserId })
      .from(campaigns)
      .innerJoin(advertisers, eq(advertisers.id, campaigns.advertiserId))
      .where(eq(advertisers.brand, 'Nordvik Outdoor'));
    // The seed's campaigns all have credits for a week or more.
    const quiet = (await runJob('low-credit-alerts')).json();
    expect(quiet.sent['low-credit']).toBe(0);
    await t.db.update(campaigns).set({ remainingImpressions: 1_000 }).where(eq(campaigns.id, nordvik!.id));

    const before = t.smtp.messages.length;
    const run = (await runJob('low-credit-alerts')).json();
    expect(run.sent).toEqual({ 'weekly-advertiser': 0, 'weekly-publisher': 0, 'low-credit': 1 });
    const alerts = t.smtp.messages.slice(before);
    expect(alerts).toHaveLength(1);
    const [alert] = alerts;
    expect(alert!.to).toContain('advertiser@demo.test');
    expect(alert!.subject).toMatch(new RegExp(`campaign #${nordvik!.id} \\(CPM\\) run out in about [\\d.]+ days?$`));
    expect(alert!.text).toContain('Credits left: 1,000 impressions (2.50 €)');
    // The link opens Add credits on this campaign, its own advertiser account put in use (a user may hold several).
    expect(alert!.text).toMatch(
      new RegExp(
        `http://[^\\s]+/advertiser/activity\\?addCredits=1&advertiser=${nordvik!.advertiserId}&campaign=${nordvik!.id}\\s`,
      ),
    );
    expect(alert!.headers['list-unsubscribe']).toMatch(/\/unsubscribe\/\d+\.low-credit\.[\w-]{43}>$/);
    expect(alert!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    const again = (await runJob('low-credit-alerts')).json();
    expect(again.sent['low-credit']).toBe(0);
    expect(t.smtp.messages.length).toBe(before + 1);
    expect(await t.db.select().from(sentMails).where(eq(sentMails.kind, 'low-credit'))).toHaveLength(1);
  });

  it('lets an admin preview each mail of a user, nothing sent; 404 for no such user, 409 for no such account', async () => {
    const [multi] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'multi@demo.test'));
    const [publisher] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'publisher@demo.test'));
    const before = t.smtp.messages.length;
    const rows = (await t.db.select().from(sentMails)).length;
    for (const kind of ['weekly-advertiser', 'weekly-publisher', 'low-credit']) {
      const response = await admin.post('/api/admin/preview-mail', { kind, userId: multi!.id });
      expect(response.statusCode, kind).toBe(200);
      const preview = response.json();
      expect(preview.to).toBe('multi@demo.test');
      expect(preview.html).toContain('<html lang="fr">');
      expect(preview.text).toContain('Bonjour Marc Lefèvre,');
      expect(preview.text).toContain(preview.unsubscribeUrl);
    }
    const weeklyPreview = (
      await admin.post('/api/admin/preview-mail', { kind: 'weekly-publisher', userId: multi!.id })
    ).json();
    const sent = mailsTo(weekly, 'multi@demo.test').find((mail) => mail.text.includes('Cuisine Facile'))!;
    expect(weeklyPreview.subject).toBe(sent.subject);
    expect(weeklyPreview.text.trim()).toBe(sent.text.trim());

    expect(
      (await admin.post('/api/admin/preview-mail', { kind: 'low-credit', userId: publisher!.id })).statusCode,
    ).toBe(409);
    expect(
      (await admin.post('/api/admin/preview-mail', { kind: 'weekly-advertiser', userId: 999_999 })).statusCode,
    ).toBe(404);
    expect((await admin.post('/api/admin/preview-mail', { kind: 'monthly', userId: multi!.id })).statusCode).toBe(422);
    const advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test');
    const signedIn = t.smtp.messages.length;
    expect(
      (await advertiser.post('/api/admin/preview-mail', { kind: 'low-credit', userId: multi!.id })).statusCode,
    ).toBe(403);
    expect(t.smtp.messages.length).toBe(signedIn);
    expect(signedIn - before).toBe(1);
    expect((await t.db.select().from(sentMails)).length).toBe(rows);
  });

  it('keeps each user’s choice on Settings (both on by default), refusing bad input', async () => {
    const client = t.client();
    await client.signIn('advertiser@demo.test');
    expect((await client.post('/api/common/get-mail-preferences')).json()).toEqual({
      weeklyReport: true,
      lowCreditAlerts: true,
    });
    const off = await client.post('/api/common/update-mail-preferences', { lowCreditAlerts: false });
    expect(off.json()).toEqual({ weeklyReport: true, lowCreditAlerts: false });
    expect(await preferences('advertiser@demo.test')).toEqual({ weekly: true, lowCredit: false });
    for (const body of [{}, { weeklyReport: 'yes' }, { weeklyReport: true, other: 1 }]) {
      expect((await client.post('/api/common/update-mail-preferences', body)).statusCode).toBe(422);
    }
    expect((await t.client().post('/api/common/update-mail-preferences', { weeklyReport: false })).statusCode).toBe(
      401,
    );
    expect(await preferences('advertiser@demo.test')).toEqual({ weekly: true, lowCredit: false });
    // Another user's choice is theirs.
    expect(await preferences('multi@demo.test')).toEqual({ weekly: true, lowCredit: true });
    const on = await client.post('/api/common/update-mail-preferences', { lowCreditAlerts: true });
    expect(on.json()).toEqual({ weeklyReport: true, lowCreditAlerts: true });
  });

  it('unsubscribes without a session through the link (GET asks, POST does) and the one-click POST; the next week skips them', async () => {
    const link = unsubscribeLink(mailsTo(weekly, 'publisher@demo.test')[0]!);
    // No cookie, no anti-forgery token: the signed link is the authority. A GET changes nothing.
    const page = await t.app.inject({ method: 'GET', url: pathOf(link) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Stop sending the weekly summary to publisher@demo.test?');
    expect(page.body).toContain('<form method="post">');
    expect(page.body).toContain('name="List-Unsubscribe" value="One-Click"');
    expect(await preferences('publisher@demo.test')).toEqual({ weekly: true, lowCredit: true });
    const done = await t.app.inject({
      method: 'POST',
      url: pathOf(link),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('the weekly summary will no longer be sent to publisher@demo.test');
    expect(await preferences('publisher@demo.test')).toEqual({ weekly: false, lowCredit: true });

    // A mailbox provider's one-click POST (RFC 8058), multipart this time, in French for a French user.
    const trialLink = unsubscribeLink(mailsTo(weekly, 'trial@demo.test')[0]!);
    const boundary = 'x-boundary';
    const oneClick = await t.app.inject({
      method: 'POST',
      url: pathOf(trialLink),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('<html lang="fr">');
    expect(await preferences('trial@demo.test')).toEqual({ weekly: false, lowCredit: true });

    // A link altered (another user, another topic, a signature changed) is refused and changes nothing.
    const [, userId, signature] = /\/unsubscribe\/(\d+)\.weekly\.([\w-]+)$/.exec(link)!;
    for (const forged of [
      `/unsubscribe/${Number(userId) + 1}.weekly.${signature}`,
      `/unsubscribe/${userId}.low-credit.${signature}`,
      `/unsubscribe/${userId}.weekly.${signature!.slice(0, -1)}A`,
      '/unsubscribe/nothing',
    ]) {
      expect((await t.app.inject({ method: 'GET', url: forged })).statusCode, forged).toBe(404);
      const post = await t.app.inject({ method: 'POST', url: forged, payload: 'List-Unsubscribe=One-Click' });
      expect(post.statusCode, forged).toBe(404);
    }
    expect(await preferences('publisher@demo.test')).toEqual({ weekly: false, lowCredit: true });
    expect(await preferences('advertiser@demo.test')).toEqual({ weekly: true, lowCredit: true });

    // The next week: everyone else gets the new summary, not them.
    t.clock.advance(7 * DAY_MS);
    const before = t.smtp.messages.length;
    const run = (await runJob('weekly-reports')).json();
    const next = t.smtp.messages.slice(before);
    expect(run.week > week).toBe(true);
    expect(mailsTo(next, 'publisher@demo.test')).toEqual([]);
    expect(mailsTo(next, 'trial@demo.test')).toEqual([]);
    expect(mailsTo(next, 'advertiser@demo.test')).toHaveLength(1);
    expect(mailsTo(next, 'multi@demo.test')).toHaveLength(2);
    expect(run.sent['weekly-advertiser'] + run.sent['weekly-publisher']).toBe(next.length);
  });
});
