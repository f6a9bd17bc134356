import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpError } from '../../http/errors.ts';
import type { Mailer, MailMessage } from '../../infra/mailer.ts';

/** How many recent sending times are kept to pick from. */
const KEPT = 32;
/** Never wait longer than this for a mail that is not sent. */
const MAX_WAIT_MS = 5_000;

/**
 * The sign-in code's mail, so that step 1 takes as long whether or not the e-mail exists (issue 21,
 * point 7): a known e-mail waits for its mail to go out (a failure answers the mailer's 503), an unknown
 * one waits as long as a recent mail took (one picked at random, so the two spreads of timings match) and
 * answers the same 503 while the mailer reports itself unhealthy.
 */
export class CodeMailer {
  private readonly durations: number[] = [];

  constructor(private readonly mailer: Mailer) {}

  /** Mails a code; throws the mailer's 503 when it cannot go out. */
  async send(message: MailMessage): Promise<void> {
    const started = performance.now();
    try {
      await this.mailer.send(message);
    } finally {
      this.durations.push(performance.now() - started);
      if (this.durations.length > KEPT) this.durations.shift();
    }
  }

  /** Takes as long as mailing usually does, sends nothing, and fails as the mailer would. */
  async pretend(): Promise<void> {
    const { durations } = this;
    const ms = durations.length > 0 ? (durations[randomInt(durations.length)] ?? 0) : 0;
    await sleep(Math.min(ms, MAX_WAIT_MS));
    if (!(await this.mailer.isHealthy())) {
      throw new HttpError(503, 'mailUnavailable', 'E-mail cannot be sent right now. Try again in a few minutes.');
    }
  }
}
