/** The numeric user types of the specification. */
export const USER_TYPE = { admin: 0, publisher: 1, advertiser: 2 } as const;
export type UserType = (typeof USER_TYPE)[keyof typeof USER_TYPE];

/** Where home sends a signed-in user of each type. */
export const HOME_PATH_BY_TYPE: Record<UserType, string> = {
  0: '/admin/stats',
  1: '/publisher/accounting',
  2: '/advertiser/activity',
};

export function isUserType(value: unknown): value is UserType {
  return value === 0 || value === 1 || value === 2;
}

/** The account switcher's value form `type,id`; the admin entry is `0` (an optional id is ignored). */
export function parseAccountValue(value: string): { type: UserType; id: number | null } | null {
  const match = /^([012])(?:,(\d{1,10}))?$/.exec(value.trim());
  if (!match) return null;
  const type = Number(match[1]) as UserType;
  if (type === USER_TYPE.admin) return { type, id: null };
  if (match[2] === undefined) return null;
  return { type, id: Number(match[2]) };
}

export function accountValue(type: UserType, id: number | null): string {
  return type === USER_TYPE.admin ? '0' : `${type},${id ?? 0}`;
}
