import { and, desc, eq, gte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { moneyAuditRuns, users, type Database } from '@helium/db';
import { MONEY_AUDIT_CHECKS, type TMoneyAuditCheck, type TMoneyAuditRun } from '@helium/contracts';
import { DAY_MS } from '@helium/domain';
import type { Clock } from '../../infra/clock.ts';
import type { Mailer } from '../../infra/mailer.ts';
import { DAY_CLOSE_GRACE_MS } from '../revenue-ledger/daily-ledger.ts';
import { moneyAuditMail } from './audit-mail.ts';
import { runCheck } from './checks.ts';

export const MONEY_AUDIT_JOB = 'money-audit';
/** How often the scheduler asks whether today's audit is due (it runs once per UTC day). */
export const MONEY_AUDIT_EVERY_MS = 10 * 60_000;

type RunRow = typeof moneyAuditRuns.$inferSelect;
export type AuditTrigger = RunRow['trigger'];

export interface MoneyAuditDeps {
  db: Database;
  mailer: Mailer;
  clock: Clock;
  log: FastifyBaseLogger;
  appUrl: string;
}

const runView = (row: RunRow): TMoneyAuditRun => ({
  ok: row.ok,
  checks: row.checks as TMoneyAuditCheck[],
  ranAt: row.startedAt.toISOString(),
  trigger: row.trigger,
  durationMs: row.durationMs,
});

/**
 * The standing audit of the money (issue 32): every check of checks.ts in turn, the run stored with what broke,
 * and every admin mailed the broken invariants with their rows. Runs once per UTC day from the scheduler, after
 * the day's revenue is posted, and whenever an admin asks; a run asked while one is under way answers that one.
 */
export class MoneyAudit {
  private running: Promise<TMoneyAuditRun> | null = null;

  constructor(private readonly deps: MoneyAuditDeps) {}

  run(trigger: AuditTrigger, requestedBy: number | null = null): Promise<TMoneyAuditRun> {
    if (!this.running) {
      this.running = this.execute(trigger, requestedBy).finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  /** The last run stored, whoever ran it. */
  async latest(): Promise<TMoneyAuditRun | null> {
    const [row] = await this.deps.db
      .select()
      .from(moneyAuditRuns)
      .orderBy(desc(moneyAuditRuns.startedAt), desc(moneyAuditRuns.id))
      .limit(1);
    return row ? runView(row) : null;
  }

  /**
   * The daily run is due once the day is closed (00:05 UTC, when the daily ledger posts it) and no scheduled run
   * started since: one a day, read from the database, so a restart does not run it again.
   */
  async isDue(): Promise<boolean> {
    const now = this.deps.clock.now().getTime();
    const dayClosedAt = new Date(Math.floor((now - DAY_CLOSE_GRACE_MS) / DAY_MS) * DAY_MS + DAY_CLOSE_GRACE_MS);
    const [since] = await this.deps.db
      .select({ id: moneyAuditRuns.id })
      .from(moneyAuditRuns)
      .where(and(eq(moneyAuditRuns.trigger, 'schedule'), gte(moneyAuditRuns.startedAt, dayClosedAt)))
      .limit(1);
    return !since;
  }

  private async execute(trigger: AuditTrigger, requestedBy: number | null): Promise<TMoneyAuditRun> {
    const { db, clock, log } = this.deps;
    const startedAt = clock.now();
    const started = performance.now();
    const checks: TMoneyAuditCheck[] = [];
    // One after the other: on the embedded database they would queue anyway, and a server keeps its connections.
    for (const name of MONEY_AUDIT_CHECKS) checks.push(await runCheck(db, name));
    const ok = checks.every((check) => check.ok);
    const [row] = await db
      .insert(moneyAuditRuns)
      .values({
        trigger,
        requestedBy,
        ok,
        checks,
        startedAt,
        durationMs: Math.round(performance.now() - started),
      })
      .returning();
    const run = runView(row!);
    if (ok) {
      log.info({ trigger, durationMs: run.durationMs }, 'money audit: every invariant holds');
    } else {
      const broken = checks.filter((check) => !check.ok).map((check) => ({ name: check.name, count: check.count }));
      log.error({ trigger, broken }, 'money audit: invariants broken');
      await this.mailAdmins(run);
    }
    return run;
  }

  /** Each admin in their language; a mail that cannot go is logged and does not undo the run. */
  private async mailAdmins(run: TMoneyAuditRun): Promise<void> {
    const { db, mailer, log, appUrl } = this.deps;
    const admins = await db
      .select({ email: users.email, locale: users.locale })
      .from(users)
      .where(eq(users.isAdmin, true))
      .orderBy(users.id);
    const failed = run.checks.filter((check) => !check.ok);
    for (const admin of admins) {
      const message = moneyAuditMail({
        to: admin.email,
        locale: admin.locale,
        ranAt: new Date(run.ranAt),
        failed,
        statsUrl: `${appUrl}/admin/stats`,
      });
      try {
        await mailer.send(message);
      } catch (error) {
        log.error({ err: error, to: admin.email }, 'money audit: the mail to an admin could not be sent');
      }
    }
  }
}
