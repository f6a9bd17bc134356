import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../http/errors.ts';

/** A file sent with a message (an invoice's PDF). */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text part (infra/mail-template.ts renders it with the HTML part from one source). */
  text: string;
  html?: string;
  /** The recipient's language, sent as Content-Language (e.g. "fr"). */
  language?: string;
  /** More headers (the reports' `List-Unsubscribe` and `List-Unsubscribe-Post`, RFC 8058). */
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
}

export interface Mailer {
  /** Sends, or throws a 503 `mailUnavailable` (the cause goes to the log, never to the caller). */
  send(message: MailMessage): Promise<void>;
  /** Whether mail can go out now: the outbox folder is writable, or the last SMTP send did not fail. */
  isHealthy(): Promise<boolean>;
  close(): void;
}

/** What nodemailer is given for a message: the sender, and the attachments as files of their own. */
function mailOptions(from: string, message: MailMessage): SendMailOptions {
  const { attachments, language, headers, ...rest } = message;
  const allHeaders = { ...headers, ...(language ? { 'Content-Language': language } : {}) };
  return {
    from,
    ...rest,
    ...(Object.keys(allHeaders).length > 0 ? { headers: allHeaders } : {}),
    ...(attachments?.length
      ? {
          attachments: attachments.map(({ filename, content, contentType }) => ({
            filename,
            content,
            contentType,
            contentDisposition: 'attachment' as const,
          })),
        }
      : {}),
  };
}

const unavailable = () =>
  new HttpError(503, 'mailUnavailable', 'E-mail cannot be sent right now. Try again in a few minutes.');

/** How long the SMTP server's state, from a send or a connection check, is taken as current (/healthz). */
export const SMTP_HEALTH_TTL_MS = 15_000;
/** A connection check not answered within this says the server is unavailable. */
const SMTP_CHECK_TIMEOUT_MS = 3_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Sends through SMTP when SMTP_URL is set, logging only the recipient: a subject may hold a sign-in code.
 * Without it, each message is written to DATA_DIR/outbox as an .eml file and its subject is logged, so a
 * developer can sign in with no mail server and nothing is lost.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  const { smtpUrl, from, outboxDir, log } = options;
  if (smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(smtpUrl);
    // What the last send or connection check said, and when: a check older than SMTP_HEALTH_TTL_MS is made again
    // (connect, EHLO, QUIT), so that a server gone away is reported without waiting for a mail to fail.
    let known: { healthy: boolean; at: number } | null = null;
    let checking: Promise<boolean> | null = null;
    const remember = (healthy: boolean) => {
      known = { healthy, at: Date.now() };
      return healthy;
    };
    const check = () =>
      Promise.race([transport.verify(), sleep(SMTP_CHECK_TIMEOUT_MS).then(() => false)]).then(
        (answered) => remember(answered === true),
        () => remember(false),
      );
    return {
      async send(message) {
        try {
          await transport.sendMail(mailOptions(from, message));
        } catch (error) {
          remember(false);
          log.error({ err: error, to: message.to }, 'mail could not be sent');
          throw unavailable();
        }
        remember(true);
        log.info({ to: message.to }, 'mail sent');
      },
      isHealthy() {
        if (known && Date.now() - known.at < SMTP_HEALTH_TTL_MS) return Promise.resolve(known.healthy);
        checking ??= check().finally(() => (checking = null));
        return checking;
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail(mailOptions(from, message));
      const file = join(outboxDir, `${Date.now()}-${randomBytes(4).toString('hex')}.eml`);
      try {
        await mkdir(outboxDir, { recursive: true });
        await writeFile(file, info.message as Buffer);
      } catch (error) {
        log.error({ err: error, outboxDir }, 'mail could not be written to the outbox');
        throw unavailable();
      }
      log.info({ to: message.to, subject: message.subject, file }, 'mail written to outbox (SMTP_URL is not set)');
    },
    async isHealthy() {
      try {
        await mkdir(outboxDir, { recursive: true });
        await access(outboxDir, constants.W_OK);
        return true;
      } catch {
        return false;
      }
    },
    close: () => transport.close(),
  };
}

/** The same mailer, each send counted as sent or failed (the app's metrics). */
export function countedMailer(mailer: Mailer, count: (outcome: 'sent' | 'failed') => void): Mailer {
  return {
    async send(message) {
      try {
        await mailer.send(message);
      } catch (error) {
        count('failed');
        throw error;
      }
      count('sent');
    },
    isHealthy: () => mailer.isHealthy(),
    close: () => mailer.close(),
  };
}
