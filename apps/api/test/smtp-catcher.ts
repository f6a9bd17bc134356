import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface CaughtMail {
  to: string;
  subject: string;
  text: string;
  /** The HTML part ('' when the message has none). */
  html: string;
  /** The Content-Language header (the recipient's language), '' when absent. */
  language: string;
  /** Every header as sent, by lower-case name, folded lines joined (`list-unsubscribe`). */
  headers: Record<string, string>;
  /** Attached files as received (invoices). */
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

/** A real SMTP server on a free loopback port that keeps what it receives, for tests. */
export async function startSmtpCatcher() {
  const messages: CaughtMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
          messages.push({
            to: to ?? '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            language: String(mail.headers.get('content-language') ?? ''),
            headers: Object.fromEntries(
              mail.headerLines.map(({ key, line }) => [
                key,
                line
                  .slice(line.indexOf(':') + 1)
                  .replace(/\r?\n[ \t]+/g, ' ')
                  .trim(),
              ]),
            ),
            attachments: mail.attachments.map((file) => ({
              filename: file.filename ?? '',
              contentType: file.contentType,
              content: file.content,
            })),
          });
          waiters.splice(0).forEach((wake) => wake());
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  /** Waits for the next mail to this address that arrives after `since` mails. */
  async function waitForMail(to: string, since = 0, timeoutMs = 5000): Promise<CaughtMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.slice(since).find((m) => m.to.toLowerCase().includes(to.toLowerCase()));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMail,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code of a sign-in e-mail. */
export function codeFrom(mail: CaughtMail): string {
  const match = /(\d{6})/.exec(mail.subject);
  if (!match?.[1]) throw new Error(`No code in "${mail.subject}"`);
  return match[1];
}
