import type { FastifyRequest } from 'fastify';
import type { CallAccess } from '@helium/contracts';
import { holdsAccount, resolveCurrentAccount, USER_TYPE, type Locale, type UserType } from '@helium/domain';
import { forbidden, HttpError, unauthorized } from './errors.ts';
import { requireCaller } from './session.ts';
import { accountsOf, findUserById } from '../features/account/users.ts';

/** Who makes a signed-in call. */
export interface SignedInActor {
  userId: number;
  locale: Locale;
}
/** The admin entry: no publisher or advertiser account. */
export interface AdminActor extends SignedInActor {
  type: typeof USER_TYPE.admin;
  accountId: null;
}
/** A publisher or advertiser account in use. */
export interface AccountActor<T extends UserType> extends SignedInActor {
  type: T;
  accountId: number;
}

/** The actor a route of each access gets: the gate has already refused everyone else. */
export type ActorFor<A extends CallAccess> = A extends 'admin'
  ? AdminActor
  : A extends 'publisher'
    ? AccountActor<typeof USER_TYPE.publisher>
    : A extends 'advertiser'
      ? AccountActor<typeof USER_TYPE.advertiser>
      : A extends 'advertiserOrAdmin'
        ? AdminActor | AccountActor<typeof USER_TYPE.advertiser>
        : A extends 'signedIn'
          ? SignedInActor
          : null;

const TYPE_OF_ACCESS = {
  admin: USER_TYPE.admin,
  publisher: USER_TYPE.publisher,
  advertiser: USER_TYPE.advertiser,
} as const;

export interface GateOptions {
  /** The call is the user's own to make: refused while an admin acts as the user (the contract's flag). */
  refusedWhileActing?: boolean;
}

/** What an admin acting as a user is told when a call is the user's own to make (in the user's language). */
const NOT_WHILE_ACTING: Record<Locale, string> = {
  en: 'While acting as this user you cannot do this: payouts and where they go are for the user alone to decide.',
  fr: "En agissant en tant que cet utilisateur, vous ne pouvez pas faire ceci : les paiements et leur destination ne se décident que par l'utilisateur.",
};

/**
 * The access gate of a call (a `preValidation` hook, so a refused caller gets its 401 or 403 before its
 * body is even looked at): 401 when signed out, 403 unless the account in use has the call's type, 403
 * `notWhileActing` for a call the user alone may make when an admin acts as the user. A personal API token's user
 * (bearer.ts) goes through the same steps as a session's, so a token reaches what the session would.
 */
export async function gate<A extends CallAccess>(
  request: FastifyRequest,
  access: A,
  options: GateOptions = {},
): Promise<ActorFor<A>> {
  return (await actorOf(request, access, options)) as ActorFor<A>;
}

async function actorOf(
  request: FastifyRequest,
  access: CallAccess,
  options: GateOptions,
): Promise<SignedInActor | AdminActor | AccountActor<UserType> | null> {
  if (access === 'public') return null;
  const caller = requireCaller(request);
  const db = request.server.ctx.db;
  const user = await findUserById(db, caller.userId);
  if (!user) throw unauthorized();
  if (options.refusedWhileActing && (request.session?.impersonatorId ?? null) !== null) {
    throw new HttpError(403, 'notWhileActing', NOT_WHILE_ACTING[user.locale]);
  }
  const actor: SignedInActor = { userId: user.id, locale: user.locale };
  if (access === 'signedIn') return actor;
  const accounts = await accountsOf(db, user.id);
  // A token reads the account it was made for, while the user still holds it (never another in its place).
  const tokenAccount = request.session ? null : request.apiToken?.account;
  if (tokenAccount && !holdsAccount(user, accounts, tokenAccount.type, tokenAccount.id)) throw forbidden();
  const current = tokenAccount
    ? resolveCurrentAccount({ ...user, currentType: tokenAccount.type, currentAccountId: tokenAccount.id }, accounts)
    : resolveCurrentAccount(user, accounts);
  const types: readonly UserType[] =
    access === 'advertiserOrAdmin' ? [USER_TYPE.admin, USER_TYPE.advertiser] : [TYPE_OF_ACCESS[access]];
  if (!current || !types.includes(current.type)) throw forbidden();
  const type = current.type;
  if (type === USER_TYPE.admin) {
    if (!user.isAdmin) throw forbidden();
    return { ...actor, type, accountId: null } satisfies AdminActor;
  }
  if (!current.account) throw forbidden();
  return { ...actor, type, accountId: current.account.id } satisfies AccountActor<UserType>;
}
