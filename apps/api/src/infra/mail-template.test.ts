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
});

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
