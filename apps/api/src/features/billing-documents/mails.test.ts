import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { createMailer } from '../../infra/mailer.ts';
import { bitcoinInstructionsMail, invoiceMail } from './mails.ts';

const PDF = Buffer.from('%PDF-1.3\n% a tiny stand-in\n%%EOF\n', 'latin1');

const bitcoin = {
  to: 'advertiser@demo.test',
  brand: 'Nordvik Outdoor',
  amountInBtc: '0.012195121951',
  address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  reference: 'K7M2QX9P4B',
  quantity: 100_000,
  isCpc: false,
};

const invoice = {
  to: 'advertiser@demo.test',
  brand: 'Nordvik Outdoor',
  invoiceNumber: '2026-000001',
  amountStr: '1,234.56 €',
  dueDateStr: 'Dec 20, 2026',
  pdf: PDF,
  reference: 'K7M2QX9P4B',
};

describe('the bitcoin instructions mail', () => {
  it('gives the exact amount, the address and the reference, in English', () => {
    const mail = bitcoinInstructionsMail({ ...bitcoin, locale: 'en' });
    expect(mail.to).toBe('advertiser@demo.test');
    expect(mail.subject).toContain('Bitcoin payment instructions');
    expect(mail.text).toContain('100,000 impressions for Nordvik Outdoor');
    expect(mail.text).toContain('0.012195121951 BTC');
    expect(mail.text).toContain(bitcoin.address);
    expect(mail.text).toContain('Reference: K7M2QX9P4B');
    expect(mail.attachments).toBeUndefined();
  });

  it('is in French for a French buyer, clicks counted as clics', () => {
    const mail = bitcoinInstructionsMail({ ...bitcoin, locale: 'fr', quantity: 500, isCpc: true });
    expect(mail.subject).toContain('instructions de paiement en bitcoins');
    expect(mail.text).toContain('500 clics pour Nordvik Outdoor');
    expect(mail.text).toContain('Montant à envoyer exactement\u202f: 0.012195121951 BTC');
    expect(mail.text).toContain('Référence\u202f: K7M2QX9P4B');
  });
});

describe('the invoice mail', () => {
  it('attaches the PDF and asks for a transfer within 30 days, in English', () => {
    const mail = invoiceMail({ ...invoice, locale: 'en' });
    expect(mail.subject).toBe('Helium Ads: invoice 2026-000001');
    expect(mail.text).toContain('1,234.56 € including VAT');
    expect(mail.text).toContain('bank transfer within 30 days, by Dec 20, 2026');
    expect(mail.text).toContain('quoting reference K7M2QX9P4B');
    expect(mail.attachments).toEqual([
      { filename: 'invoice-2026-000001.pdf', content: PDF, contentType: 'application/pdf' },
    ]);
  });

  it('is in French for a French buyer', () => {
    const mail = invoiceMail({ ...invoice, locale: 'fr', amountStr: '1 234,56 €', dueDateStr: '20 déc. 2026' });
    expect(mail.subject).toBe('Helium Ads\u202f: facture 2026-000001');
    expect(mail.text).toContain("d'un montant de 1 234,56 € TTC");
    expect(mail.text).toContain('virement bancaire sous 30 jours, au plus tard le 20 déc. 2026');
    expect(mail.attachments?.[0]?.filename).toBe('facture-2026-000001.pdf');
  });

  it('quotes the invoice number when no other reference is given', () => {
    const { reference: _reference, ...withoutReference } = invoice;
    expect(invoiceMail({ ...withoutReference, locale: 'en' }).text).toContain('quoting reference 2026-000001');
  });
});

describe('the mailer sends attachments', () => {
  it('by SMTP, as a PDF file of its own', async () => {
    const received: ParsedMail[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            received.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'test@helium.local',
      outboxDir: mkdtempSync(join(tmpdir(), 'helium-mail-')),
      log: pino({ level: 'silent' }),
    });
    try {
      await mailer.send(invoiceMail({ ...invoice, locale: 'en' }));
      const [mail] = received;
      expect(mail?.subject).toBe('Helium Ads: invoice 2026-000001');
      expect(mail?.text).toContain('2026-000001');
      expect(mail?.attachments).toHaveLength(1);
      expect(mail?.attachments[0]).toMatchObject({
        filename: 'invoice-2026-000001.pdf',
        contentType: 'application/pdf',
        contentDisposition: 'attachment',
      });
      expect(mail?.attachments[0]?.content.equals(PDF)).toBe(true);
    } finally {
      mailer.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('to the outbox, in the .eml file', async () => {
    const outboxDir = join(mkdtempSync(join(tmpdir(), 'helium-mail-')), 'outbox');
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'test@helium.local',
      outboxDir,
      log: pino({ level: 'silent' }),
    });
    await mailer.send(invoiceMail({ ...invoice, locale: 'fr' }));
    const [file] = readdirSync(outboxDir);
    const parsed = await simpleParser(readFileSync(join(outboxDir, file!)));
    expect(parsed.attachments[0]?.filename).toBe('facture-2026-000001.pdf');
    expect(parsed.attachments[0]?.content.equals(PDF)).toBe(true);
    mailer.close();
  });
});
