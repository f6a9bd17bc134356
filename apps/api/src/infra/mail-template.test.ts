import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { adDecisionMail, publisherValidationRequestMail } from '../features/ad-validation/mails.ts';
import { welcomeMail } from '../features/admin-accounts/welcome-mail.ts';
import { latePaymentMail } from '../features/billing/late-payment-mail.ts';
import { bitcoinInstructionsMail, invoiceMail } from '../features/billing-documents/mails.ts';
import { moneyAuditMail } from '../features/money-audit/audit-mail.ts';
import { payoutPaidMail, payoutReturnedMail } from '../features/payouts/payout-mails.ts';
import { loginCodeMail } from '../features/signin/login-code-mail.ts';
import { advertiserReportMail, lowCreditMail, publisherReportMail } from '../features/mail-reports/report-mails.ts';
import { mailHtml, renderMail } from './mail-template.ts';
import type { MailMessage } from './mailer.ts';

const PDF = Buffer.from('%PDF-1.3\n%%EOF\n', 'latin1');
const to = 'someone@demo.test';

/** Every mail the API sends, in one language. */
const everyMail = (locale: 'en' | 'fr'): Record<string, MailMessage> => ({
  loginCode: loginCodeMail({ to, name: 'Ann <b>', code: '123456', locale, minutes: 15 }),
  welcome: welcomeMail({ to, name: 'Ann', brand: 'Acme & Co', locale, appUrl: 'https://ads.example.test' }),
  adDecision: adDecisionMail({
    to,
    name: 'Ann',
    locale,
    adId: 7,
    brand: 'Acme',
    isAccepted: true,
    adsUrl: 'https://x.test/a',
  }),
  validationRequest: publisherValidationRequestMail({
    to,
    name: 'Ann',
    locale,
    publisherBrand: 'Blog',
    advertiserBrand: 'Acme',
    link: 'https://x.test/v?a=1&b=2',
    hours: 24,
  }),
  bitcoin: bitcoinInstructionsMail({
    to,
    locale,
    brand: 'Acme',
    amountInBtc: '0.012195121951',
    address: 'bc1qexample',
    reference: 'K7M2',
    quantity: 1000,
    isCpc: false,
  }),
  invoice: invoiceMail({
    to,
    locale,
    brand: 'Acme',
    invoiceNumber: '2026-1',
    amountStr: '12 €',
    dueDateStr: 'x',
    pdf: PDF,
  }),
  latePayment: latePaymentMail({
    to,
    locale,
    saleId: 42,
    reference: 'K7M2',
    brand: 'Acme <b>',
    method: 'card',
    amountStr: '250.00 €',
    quantityStr: '100,000 impressions',
    outcome: 'refunded',
    refundId: 're_123',
    paymentsUrl: 'https://x.test/admin/payments',
  }),
  payoutPaid: payoutPaidMail({ to, locale, brand: 'Blog', method: 'wire', amountStr: '60 €', reference: 'T-1' }),
  payoutReturned: payoutReturnedMail({
    to,
    locale,
    brand: 'Blog',
    method: 'paypal',
    amountStr: '60 €',
    reason: 'closed',
    restoredStr: '60 €',
  }),
  moneyAudit: moneyAuditMail({
    to,
    locale,
    ranAt: new Date('2026-11-26T00:15:00Z'),
    failed: [
      {
        name: 'ledgerBalances',
        ok: false,
        count: 21,
        rows: Array.from({ length: 21 }, (_, index) => ({
          accountType: 'publisher',
          accountId: index + 1,
          stored: 10,
          ledger: null,
        })),
      },
    ],
    statsUrl: 'https://ads.example.test/admin/stats',
  }),
  ...reportMails(locale),
});

/** The reports by e-mail (features/mail-reports), with a brand a user typed. */
function reportMails(locale: 'en' | 'fr'): Record<string, MailMessage> {
  const recipient = {
    to,
    name: 'Ann <b>',
    locale,
    currency: 'usd' as const,
    rates: { usdToEur: 0.9, btcToEur: 90_000 },
  };
  const week = { monday: '2026-11-16', sunday: '2026-11-22' };
  const unsubscribeUrl = 'https://ads.example.test/unsubscribe/7.weekly.sig';
  return {
    weeklyAdvertiser: advertiserReportMail({
      ...recipient,
      week,
      campaigns: [
        {
          id: 3,
          brand: 'Acme & Co',
          isCpc: false,
          impressions: 12_345,
          clicks: 67,
          ctr: 0.5427,
          leads: null,
          costs: 30.86,
          credits: { units: 20_000, euros: 50, daysLeft: 11.2 },
        },
        {
          id: 4,
          brand: 'Acme & Co',
          isCpc: true,
          impressions: 0,
          clicks: 0,
          ctr: 0,
          leads: 2,
          costs: 0,
          credits: { units: 40, euros: 12, daysLeft: null },
        },
      ],
      brandsWithoutCampaign: ['Other <i>'],
      activityUrl: 'https://ads.example.test/advertiser/activity',
      unsubscribeUrl,
    }),
    weeklyPublisher: publisherReportMail({
      ...recipient,
      week,
      publishers: [
        {
          brand: 'Blog',
          impressions: 9_000,
          revenueMicros: 15_000_000,
          balanceMicros: 60_000_000,
          minBalanceForPayoutMicros: 50_000_000,
          blocker: null,
        },
        ...(['pendingPayout', 'belowMinimum', 'methodNotAuthorized', 'methodNotConfigured'] as const).map(
          (blocker) => ({
            brand: `Site ${blocker}`,
            impressions: 1,
            revenueMicros: 1,
            balanceMicros: 1,
            minBalanceForPayoutMicros: 50_000_000,
            blocker,
          }),
        ),
      ],
      accountingUrl: 'https://ads.example.test/publisher/accounting',
      unsubscribeUrl,
    }),
    lowCredit: lowCreditMail({
      ...recipient,
      campaign: { id: 3, brand: 'Acme & Co', isCpc: false },
      credits: { units: 2_000, euros: 5, daysLeft: 2.5 },
      addCreditsUrl: 'https://ads.example.test/advertiser/activity?addCredits=1',
      unsubscribeUrl: 'https://ads.example.test/unsubscribe/7.low-credit.sig',
    }),
    lowCreditEmpty: lowCreditMail({
      ...recipient,
      campaign: { id: 4, brand: 'Acme & Co', isCpc: true },
      credits: { units: 0, euros: 0, daysLeft: 0 },
      addCreditsUrl: 'https://ads.example.test/advertiser/activity?addCredits=1',
      unsubscribeUrl: 'https://ads.example.test/unsubscribe/7.low-credit.sig',
    }),
  };
}

/** What a reader sees of an HTML part: its text, tags dropped, entities and spaces as in the text part. */
const visibleText = (html: string) =>
  html
    .replace(/<title>[\s\S]*?<\/title>/, '')
    .replace(/<br>\n?/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

describe('every mail has a text part and an HTML part from one source (issue 26, point 5)', () => {
  for (const locale of ['en', 'fr'] as const) {
    for (const [name, mail] of Object.entries(everyMail(locale))) {
      it(`${name} in ${locale}: the HTML part says every line of the text part, in the recipient's language`, () => {
        expect(mail.language).toBe(locale);
        expect(mail.html).toContain(`<html lang="${locale}">`);
        expect(mail.text).not.toMatch(/<(html|p|a|span|strong)[ >]/);
        const seen = visibleText(mail.html!);
        for (const line of mail.text.split('\n').filter(Boolean)) expect(seen).toContain(line);
        expect(mail.html).not.toContain('<b>');
        expect(mail.text.endsWith('\n\nHelium Ads')).toBe(true);
      });
    }
  }

  it('escapes what users typed and makes addresses links', () => {
    const html = mailHtml('en', 'S', [[['Hi <script>alert(1)</script> ', { link: 'https://x.test/?a=1&b="2"' }]]]);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<a href="https://x.test/?a=1&amp;b=&quot;2&quot;"');
  });

  it('gives the reports their one-click unsubscribe headers (RFC 8058) and money in the user’s currency', () => {
    for (const locale of ['en', 'fr'] as const) {
      for (const mail of Object.values(reportMails(locale))) {
        expect(mail.headers?.['List-Unsubscribe']).toMatch(
          /^<https:\/\/ads\.example\.test\/unsubscribe\/7\.[a-z-]+\.sig>$/,
        );
        expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
        expect(mail.text).toContain(mail.headers!['List-Unsubscribe']!.slice(1, -1));
      }
    }
    const en = reportMails('en');
    // 30.86 € at 0.9 € per dollar.
    expect(en.weeklyAdvertiser!.text).toContain('Spend: $34.29');
    expect(en.weeklyAdvertiser!.text).toContain('CTR: 0.54%');
    expect(en.weeklyAdvertiser!.text).toContain('Leads: not tracked');
    expect(en.weeklyAdvertiser!.text).toContain('Days to empty: about 11.2 days');
    expect(en.weeklyPublisher!.text).toContain('Revenue: $16.67');
    expect(en.lowCredit!.subject).toBe(
      'Helium Ads: the credits of Acme & Co, campaign #3 (CPM) run out in about 2.5 days',
    );
    expect(en.lowCreditEmpty!.subject).toBe('Helium Ads: Acme & Co, campaign #4 (CPC) is out of credits');
    expect(reportMails('fr').weeklyAdvertiser!.text).toContain('Dépenses\u202f: $34,29');
  });

  it('keeps attachments', () => {
    const mail = renderMail({ to, locale: 'en', subject: 'S', paragraphs: [['x']], attachments: [] });
    expect(mail.attachments).toEqual([]);
    expect(everyMail('fr').invoice!.attachments?.[0]?.filename).toBe('facture-2026-1.pdf');
  });
});

describe('a mail as it arrives, parsed by a MIME parser', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is multipart/alternative with a French text part and a French HTML part for a French user', async () => {
    const before = t.smtp.messages.length;
    const step1 = await t.client().post('/api/common/signin', { step: 1, email: 'multi@demo.test' });
    expect(step1.statusCode).toBe(200);
    const mail = await t.smtp.waitForMail('multi@demo.test', before);
    expect(mail.subject).toMatch(/^Votre code de connexion Helium Ads\u202f: \d{6}$/);
    expect(mail.language).toBe('fr');
    expect(mail.text).toMatch(/Votre code de connexion est\u202f: \d{6}/);
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.html).toMatch(/Votre code de connexion est\u202f: <span[^>]*>\d{6}<\/span>/);
  });

  it('keeps the PDF beside both parts (multipart/mixed around multipart/alternative)', async () => {
    const nodemailer = await import('nodemailer');
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const message = everyMail('en').invoice!;
    const info = await transport.sendMail({
      from: 'a@b.test',
      ...message,
      headers: { 'Content-Language': message.language! },
    });
    const raw = (info.message as Buffer).toString();
    expect(raw).toMatch(/Content-Type: multipart\/mixed/);
    expect(raw).toMatch(/Content-Type: multipart\/alternative/);
    const parsed = await simpleParser(info.message as Buffer);
    expect(parsed.text).toContain('Please find attached invoice 2026-1');
    expect(parsed.html).toContain('Please find attached invoice 2026-1');
    expect(parsed.attachments.map((file) => file.filename)).toEqual(['invoice-2026-1.pdf']);
  });
});
