import { sql } from 'drizzle-orm';
import { users, type Database } from '@helium/db';
import { fieldRefusal } from '../../http/errors.ts';

/*
 * The users an admin names by e-mail on an account (issue 24): its sales rep and its holder. An e-mail no user has is
 * a 422 naming the field (`salesRep`, `holderEmail`) and the e-mail, shown beside that field (issue 36).
 */

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The id of the user of this e-mail (null = none, undefined = unchanged); an unknown e-mail is a 422. */
async function userIdOfEmail(
  tx: Tx,
  email: string | null | undefined,
  refusal: { status: string; message: string; field: string },
): Promise<number | null | undefined> {
  if (email === undefined || email === null) return email;
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (!user) {
    throw fieldRefusal(422, refusal.status, refusal.message.replace('{email}', email), {
      path: refusal.field,
      key: 'unknownUser',
      values: { email },
    });
  }
  return user.id;
}

export const salesRepId = (tx: Tx, email: string | null | undefined) =>
  userIdOfEmail(tx, email, {
    status: 'unknownSalesRep',
    message: "No user has the e-mail {email}: create the sales rep's user first.",
    field: 'salesRep',
  });

/** The new holder of an account: an existing user (an account always has one, so null is refused by the schema). */
export async function holderId(tx: Tx, email: string | undefined): Promise<number | undefined> {
  const id = await userIdOfEmail(tx, email, {
    status: 'unknownHolder',
    message: 'No user has the e-mail {email}: create the account for a new user, or create the user first.',
    field: 'holderEmail',
  });
  return id ?? undefined;
}
