import { userActivities, type Database } from '@helium/db';
import { USER_TYPE } from '@helium/domain';
import type { TUserActivityRequest } from '@helium/contracts';
import { unauthorized } from '../../http/errors.ts';
import { findUserById } from '../account/users.ts';

/** One row per thing the user did, with the account in use then (none for the admin entry). */
export async function recordUserActivity(
  db: Database,
  userId: number,
  activity: TUserActivityRequest['activityStr'],
  at: Date,
): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) throw unauthorized();
  await db.insert(userActivities).values({
    userId: user.id,
    accountId: user.currentType === USER_TYPE.admin ? null : (user.currentAccountId ?? null),
    activity,
    createdAt: at,
  });
}
