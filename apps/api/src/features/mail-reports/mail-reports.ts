import { and, asc, eq, exists, inArray, isNull, not, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { advertisers, campaigns, publishers, sentMails, users, type Database, type SentMailKind } from '@helium/db';
import type { TMailJob, TMailJobRun, TMailPreview, TReportMailKind } from '@helium/contracts';
import { activityPathOf, ADVERTISER_LINK_PARAM, HOUR_MS } from '@helium/domain';
import { isLowOnCredits, lastFullWeek, LOW_CREDIT_DAYS, mondayOf } from '@helium/domain/activity';
import type { CurrencyRates } from '@helium/domain/format';
import { HttpError, notFound } from '../../http/errors.ts';
import type { Clock } from '../../infra/clock.ts';
import type { Mailer, MailMessage } from '../../infra/mailer.ts';
import type { ActivityHashIds } from '../campaign-activity/campaign-activity.ts';
import { latestNetworkSettings } from '../network-settings/network-settings.ts';
import {
  heldAdvertiserCampaigns,
  advertiserWeek,
  campaignCredits,
  firstOpenDay,
  publisherWeek,
  recentDelivery,
} from './report-figures.ts';
import {
  advertiserReportMail,
  lowCreditMail,
  publisherReportMail,
  type Recipient,
  type ReportWeek,
} from './report-mails.ts';
import { unsubscribeUrl } from './unsubscribe.ts';

export const WEEKLY_REPORTS_JOB = 'weekly-reports' satisfies TMailJob;
export const LOW_CREDIT_ALERTS_JOB = 'low-credit-alerts' satisfies TMailJob;
/**
 * How often each job looks for what is due: every mail is recorded once (sent_mails), so a look that finds
 * everything sent sends nothing. The weekly reports are due once the week has closed (Monday 00:05 UTC); the
 * low-credit alerts read the pace of the last closed days, which changes once a day.
 */
export const MAIL_JOBS_EVERY_MS = HOUR_MS;

type UserRow = typeof users.$inferSelect;

export interface MailReportsDeps {
  db: Database;
  mailer: Mailer;
  clock: Clock;
  log: FastifyBaseLogger;
  appUrl: string;
  secret: string;
  hashIds: ActivityHashIds;
}

const noneSent = (): TMailJobRun['sent'] => ({ 'weekly-advertiser': 0, 'weekly-publisher': 0, 'low-credit': 0 });

/**
 * The reports by e-mail (docs/emails.md). Each mail is recorded in sent_mails before it goes (a unique row per
 * user, kind and week, or per campaign and week for an alert), so that a run repeated for the same week, on this
 * instance or another, sends nothing new; a mail that cannot be sent has its row removed, and the next run tries it
 * again. The scheduler runs each job on one instance at a time (infra/job-claims.ts).
 */
export class MailReports {
  constructor(private readonly deps: MailReportsDeps) {}

  /** The week the weekly reports sent now are about: the last full week before the first day not closed. */
  reportWeek(): ReportWeek {
    return lastFullWeek(firstOpenDay(this.deps.clock.now()));
  }

  /** The week the low-credit alerts sent now count in: the one under way (UTC). */
  alertWeek(): string {
    return mondayOf(firstOpenDay(this.deps.clock.now()));
  }

  run(job: TMailJob): Promise<TMailJobRun> {
    return job === WEEKLY_REPORTS_JOB ? this.sendWeeklyReports() : this.sendLowCreditAlerts();
  }

  /** Each advertiser's and each publisher's summary of the last full week, to the users who did not turn it off. */
  async sendWeeklyReports(): Promise<TMailJobRun> {
    const week = this.reportWeek();
    const result: TMailJobRun = { job: WEEKLY_REPORTS_JOB, week: week.monday, sent: noneSent(), failed: 0 };
    const rates = await this.rates();
    for (const kind of ['weekly-advertiser', 'weekly-publisher'] as const) {
      const accounts = kind === 'weekly-advertiser' ? advertisers : publishers;
      const due = await this.deps.db
        .select()
        .from(users)
        .where(
          and(
            eq(users.weeklyReportMail, true),
            exists(
              this.deps.db
                .select({ one: sql`1` })
                .from(accounts)
                .where(eq(accounts.userId, users.id)),
            ),
            not(this.alreadySent(kind, week.monday)),
          ),
        )
        .orderBy(asc(users.id));
      for (const user of due) {
        const outcome = await this.sendOnce({ userId: user.id, kind, week: week.monday }, () =>
          kind === 'weekly-advertiser'
            ? this.advertiserReport(user, week, rates)
            : this.publisherReport(user, week, rates),
        );
        this.count(result, kind, outcome);
      }
    }
    this.deps.log.info({ week: week.monday, ...result.sent, failed: result.failed }, 'weekly reports sent');
    return result;
  }

  /** An alert for each campaign whose credits will last under LOW_CREDIT_DAYS at its recent pace, once a week. */
  async sendLowCreditAlerts(): Promise<TMailJobRun> {
    const week = this.alertWeek();
    const result: TMailJobRun = { job: LOW_CREDIT_ALERTS_JOB, week, sent: noneSent(), failed: 0 };
    const now = this.deps.clock.now();
    const candidates = await this.deps.db
      .select({ campaign: campaigns, user: users, brand: advertisers.brand })
      .from(campaigns)
      .innerJoin(advertisers, eq(advertisers.id, campaigns.advertiserId))
      .innerJoin(users, eq(users.id, advertisers.userId))
      .where(
        and(
          eq(users.lowCreditMail, true),
          not(
            exists(
              this.deps.db
                .select({ one: sql`1` })
                .from(sentMails)
                .where(
                  and(
                    eq(sentMails.campaignId, campaigns.id),
                    eq(sentMails.kind, 'low-credit'),
                    eq(sentMails.week, week),
                  ),
                ),
            ),
          ),
        ),
      )
      .orderBy(asc(campaigns.id));
    const delivery = await recentDelivery(this.deps.db, now);
    const rates = candidates.length > 0 ? await this.rates() : null;
    for (const { campaign, user, brand } of candidates) {
      const credits = campaignCredits(campaign, delivery.get(campaign.id));
      if (!isLowOnCredits(credits.daysLeft) || credits.daysLeft === null || !rates) continue;
      const daysLeft = credits.daysLeft;
      const outcome = await this.sendOnce({ userId: user.id, kind: 'low-credit', week, campaignId: campaign.id }, () =>
        Promise.resolve(
          lowCreditMail({
            ...this.recipient(user, rates),
            campaign: { id: campaign.id, brand, isCpc: campaign.isCpc },
            credits: { ...credits, daysLeft },
            addCreditsUrl: this.addCreditsUrl(campaign),
            unsubscribeUrl: unsubscribeUrl(this.deps.appUrl, this.deps.secret, user.id, 'low-credit'),
          }),
        ),
      );
      this.count(result, 'low-credit', outcome);
    }
    if (result.sent['low-credit'] > 0 || result.failed > 0) {
      this.deps.log.info({ week, sent: result.sent['low-credit'], failed: result.failed }, 'low-credit alerts sent');
    }
    return result;
  }

  /**
   * The mail of that kind as it would go to the user now, nothing sent nor recorded: the last full week's figures;
   * for an alert, the user's campaign with the fewest days left (whether low or not).
   */
  async preview(kind: TReportMailKind, userId: number): Promise<TMailPreview> {
    const [user] = await this.deps.db.select().from(users).where(eq(users.id, userId));
    if (!user) throw notFound('This user does not exist.');
    const rates = await this.rates();
    const nothing = () => new HttpError(409, 'nothingToPreview', 'This user holds no account this mail is about.');
    let message: MailMessage;
    if (kind === 'low-credit') {
      const all = (await heldAdvertiserCampaigns(this.deps.db, user.id)).flatMap((advertiser) =>
        advertiser.campaigns.map((campaign) => ({ campaign, brand: advertiser.brand })),
      );
      if (all.length === 0) throw nothing();
      const delivery = await recentDelivery(
        this.deps.db,
        this.deps.clock.now(),
        all.map(({ campaign }) => campaign.id),
      );
      const withCredits = all.map((entry) => ({
        ...entry,
        credits: campaignCredits(entry.campaign, delivery.get(entry.campaign.id)),
      }));
      withCredits.sort((a, b) => (a.credits.daysLeft ?? Infinity) - (b.credits.daysLeft ?? Infinity));
      const { campaign, brand, credits } = withCredits[0]!;
      message = lowCreditMail({
        ...this.recipient(user, rates),
        campaign: { id: campaign.id, brand, isCpc: campaign.isCpc },
        // A campaign that delivered nothing lately is never alerted about: shown as if at the threshold.
        credits: { ...credits, daysLeft: credits.daysLeft ?? LOW_CREDIT_DAYS },
        addCreditsUrl: this.addCreditsUrl(campaign),
        unsubscribeUrl: unsubscribeUrl(this.deps.appUrl, this.deps.secret, user.id, 'low-credit'),
      });
    } else {
      const accounts = kind === 'weekly-advertiser' ? advertisers : publishers;
      const [held] = await this.deps.db
        .select({ id: accounts.id })
        .from(accounts)
        .where(eq(accounts.userId, user.id))
        .limit(1);
      if (!held) throw nothing();
      const week = this.reportWeek();
      message =
        kind === 'weekly-advertiser'
          ? await this.advertiserReport(user, week, rates)
          : await this.publisherReport(user, week, rates);
    }
    return {
      to: message.to,
      subject: message.subject,
      html: message.html ?? '',
      text: message.text,
      unsubscribeUrl: (message.headers?.['List-Unsubscribe'] ?? '').replace(/^<|>$/g, ''),
    };
  }

  private async advertiserReport(user: UserRow, week: ReportWeek, rates: CurrencyRates): Promise<MailMessage> {
    const figures = await advertiserWeek(this.deps.db, user.id, {
      week,
      now: this.deps.clock.now(),
      hashIds: this.deps.hashIds,
    });
    return advertiserReportMail({
      ...this.recipient(user, rates),
      week,
      ...figures,
      activityUrl: `${this.deps.appUrl}/advertiser/activity`,
      unsubscribeUrl: unsubscribeUrl(this.deps.appUrl, this.deps.secret, user.id, 'weekly'),
    });
  }

  private async publisherReport(user: UserRow, week: ReportWeek, rates: CurrencyRates): Promise<MailMessage> {
    const settings = await latestNetworkSettings(this.deps.db);
    const figures = await publisherWeek(this.deps.db, user.id, { week, now: this.deps.clock.now(), settings });
    return publisherReportMail({
      ...this.recipient(user, rates),
      week,
      publishers: figures,
      accountingUrl: `${this.deps.appUrl}/publisher/accounting`,
      unsubscribeUrl: unsubscribeUrl(this.deps.appUrl, this.deps.secret, user.id, 'weekly'),
    });
  }

  /** Add credits on the alert's campaign, its advertiser account put in use first for a user holding several (signedIn.tsx). */
  private addCreditsUrl(campaign: { id: number; advertiserId: number }): string {
    return `${this.deps.appUrl}${activityPathOf(campaign.id, {
      addCredits: '1',
      [ADVERTISER_LINK_PARAM]: String(campaign.advertiserId),
    })}`;
  }

  private recipient(user: UserRow, rates: CurrencyRates): Recipient {
    return { to: user.email, name: user.name, locale: user.locale, currency: user.currency, rates };
  }

  private async rates(): Promise<CurrencyRates> {
    const settings = await latestNetworkSettings(this.deps.db);
    return { usdToEur: Number(settings.usdToEur), btcToEur: Number(settings.btcToEur) };
  }

  /** A weekly report of this kind and week already recorded for the user (of the outer query's `users` row). */
  private alreadySent(kind: SentMailKind, week: string) {
    return exists(
      this.deps.db
        .select({ one: sql`1` })
        .from(sentMails)
        .where(
          and(
            eq(sentMails.userId, users.id),
            eq(sentMails.kind, kind),
            eq(sentMails.week, week),
            isNull(sentMails.campaignId),
          ),
        ),
    );
  }

  /**
   * Records the mail, then sends it: a row already there (another run sent it) sends nothing. A mail that cannot
   * go has its row removed, so that the next run tries again.
   */
  private async sendOnce(
    row: { userId: number; kind: SentMailKind; week: string; campaignId?: number },
    build: () => Promise<MailMessage>,
  ): Promise<'sent' | 'already' | 'failed'> {
    const { db, mailer, log, clock } = this.deps;
    const [recorded] = await db
      .insert(sentMails)
      .values({ ...row, sentAt: clock.now() })
      .onConflictDoNothing()
      .returning({ id: sentMails.id });
    if (!recorded) return 'already';
    try {
      await mailer.send(await build());
      return 'sent';
    } catch (error) {
      log.error({ err: error, userId: row.userId, kind: row.kind }, 'report mail could not be sent');
      await db.delete(sentMails).where(inArray(sentMails.id, [recorded.id]));
      return 'failed';
    }
  }

  private count(result: TMailJobRun, kind: SentMailKind, outcome: 'sent' | 'already' | 'failed') {
    if (outcome === 'sent') result.sent[kind] += 1;
    if (outcome === 'failed') result.failed += 1;
  }
}
