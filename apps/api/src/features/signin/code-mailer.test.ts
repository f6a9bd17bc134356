import { describe, expect, it } from 'vitest';
import type { Mailer } from '../../infra/mailer.ts';
import { HttpError } from '../../http/errors.ts';
import { CodeMailer } from './code-mailer.ts';

/** A mailer that takes `ms` to send, and says it is healthy or not. */
function slowMailer(ms: number, healthy = true): Mailer & { sent: number } {
  return {
    sent: 0,
    async send() {
      await new Promise((resolve) => setTimeout(resolve, ms));
      this.sent += 1;
    },
    isHealthy: async () => healthy,
    close: () => undefined,
  };
}

const timed = async (run: () => Promise<unknown>) => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};

describe('the sign-in code mail, as long whether or not an e-mail exists', () => {
  it('makes an unknown e-mail wait about as long as a mail took, and sends nothing', async () => {
    const mailer = slowMailer(120);
    const mail = new CodeMailer(mailer);
    const sending = await timed(() => mail.send({ to: 'a@b.test', subject: 's', text: 't' }));
    const pretending = await timed(() => mail.pretend());
    expect(mailer.sent).toBe(1);
    expect(sending).toBeGreaterThanOrEqual(110);
    expect(pretending).toBeGreaterThanOrEqual(100);
    expect(pretending).toBeLessThan(sending + 200);
  });

  it('answers the same 503 for an unknown e-mail while the mailer says mail cannot go out', async () => {
    const mail = new CodeMailer(slowMailer(0, false));
    const refusal = await mail.pretend().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({ statusCode: 503, status: 'mailUnavailable' });
  });
});
