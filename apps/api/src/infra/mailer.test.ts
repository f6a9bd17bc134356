import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { capturedLog } from '../../test/captured-log.ts';
import { startSmtpCatcher } from '../../test/smtp-catcher.ts';
import { HttpError } from '../http/errors.ts';
import { countedMailer, createMailer, SMTP_HEALTH_TTL_MS, type Mailer } from './mailer.ts';

const message = { to: 'advertiser@demo.test', subject: 'Your sign-in code: 123456', text: 'Code 123456' };
const outbox = () => join(mkdtempSync(join(tmpdir(), 'helium-mail-')), 'outbox');
const catchers: Array<Awaited<ReturnType<typeof startSmtpCatcher>>> = [];
afterAll(async () => {
  for (const catcher of catchers) await catcher.close().catch(() => undefined);
});

describe('the mailer', () => {
  it('sends by SMTP and logs the recipient, never the subject (it may hold a sign-in code)', async () => {
    const smtp = await startSmtpCatcher();
    catchers.push(smtp);
    const { logger: log, text } = capturedLog();
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'test@helium.local', outboxDir: outbox(), log });
    await mailer.send(message);
    expect(smtp.messages.at(-1)?.subject).toBe(message.subject);
    expect(text()).toContain('advertiser@demo.test');
    expect(text()).not.toContain('123456');
    expect(await mailer.isHealthy()).toBe(true);
    mailer.close();
  });

  it('answers a failed SMTP send with a 503 and reports itself unhealthy until a send succeeds', async () => {
    const smtp = await startSmtpCatcher();
    const url = smtp.url;
    await smtp.close();
    const { logger: log, text } = capturedLog();
    const mailer = createMailer({ smtpUrl: url, from: 'test@helium.local', outboxDir: outbox(), log });
    const error = await mailer.send(message).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 503, status: 'mailUnavailable' });
    expect(await mailer.isHealthy()).toBe(false);
    expect(text()).not.toContain('123456');
    mailer.close();
  });

  it('checks the SMTP server itself when no mail went out lately: away before any send, away after a send', async () => {
    const { logger: log } = capturedLog();
    const gone = await startSmtpCatcher();
    await gone.close();
    const neverSent = createMailer({ smtpUrl: gone.url, from: 'test@helium.local', outboxDir: outbox(), log });
    // No mail sent yet: the connection check says it.
    expect(await neverSent.isHealthy()).toBe(false);
    neverSent.close();

    const smtp = await startSmtpCatcher();
    catchers.push(smtp);
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'test@helium.local', outboxDir: outbox(), log });
    await mailer.send(message);
    expect(await mailer.isHealthy()).toBe(true);
    await smtp.close();
    // Within SMTP_HEALTH_TTL_MS the last send stands; after it, the server is checked again, and is away.
    expect(await mailer.isHealthy()).toBe(true);
    const now = Date.now();
    const later = vi.spyOn(Date, 'now').mockReturnValue(now + SMTP_HEALTH_TTL_MS + 1);
    try {
      expect(await mailer.isHealthy()).toBe(false);
    } finally {
      later.mockRestore();
      mailer.close();
    }
  });

  it('answers an outbox that cannot be written with a 503, and says so in its health', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'helium-mail-'));
    const broken = join(parent, 'outbox');
    writeFileSync(broken, 'a file where the folder should be');
    const { logger: log } = capturedLog();
    const mailer = createMailer({ smtpUrl: undefined, from: 'test@helium.local', outboxDir: broken, log });
    await expect(mailer.send(message)).rejects.toMatchObject({ statusCode: 503, status: 'mailUnavailable' });
    expect(await mailer.isHealthy()).toBe(false);
    const working = createMailer({ smtpUrl: undefined, from: 'test@helium.local', outboxDir: outbox(), log });
    await working.send(message);
    expect(await working.isHealthy()).toBe(true);
  });
});

describe('countedMailer', () => {
  it('counts each send as sent or failed, and passes the failure on unchanged', async () => {
    const refusal = new HttpError(503, 'mailUnavailable', 'E-mail cannot be sent right now.');
    let fail = false;
    const inner: Mailer = {
      send: async () => {
        if (fail) throw refusal;
      },
      isHealthy: async () => !fail,
      close: () => {},
    };
    const counted: string[] = [];
    const mailer = countedMailer(inner, (outcome) => counted.push(outcome));
    const message = { to: 'a@example.test', subject: 'Hello', text: 'Hi' };
    await mailer.send(message);
    fail = true;
    await expect(mailer.send(message)).rejects.toBe(refusal);
    expect(counted).toEqual(['sent', 'failed']);
    expect(await mailer.isHealthy()).toBe(false);
  });
});
