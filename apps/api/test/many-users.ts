import { users, type Database } from '@helium/db';

const FIRST = ['Anne', 'Bruno', 'Chloé', 'David', 'Emma', 'François', 'Gaëlle', 'Hugo', 'Inès', 'Jules'];
const LAST = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau'];

/**
 * Adds `count` users with no account: user n is "<first> <last> n" (ten first and ten last names in turn, so one
 * in ten is a Martin) with the e-mail user<n>@speed.test. For Admin: Users at scale (its test and its benchmark).
 */
export async function insertManyUsers(db: Database, count: number): Promise<void> {
  for (let start = 0; start < count; start += 1000) {
    await db.insert(users).values(
      Array.from({ length: Math.min(1000, count - start) }, (_, offset) => {
        const n = start + offset;
        return {
          name: `${FIRST[n % 10]} ${LAST[Math.floor(n / 10) % 10]} ${n}`,
          email: `user${n}@speed.test`,
          currentType: 1,
        };
      }),
    );
  }
}
