import { asc, count, eq } from 'drizzle-orm';
import { auditLog, publisherPlacements, publishers, type Database } from '@helium/db';
import type {
  TGetPlacementsResponse,
  TPlacement,
  TPlacementPublisher,
  TUpdatePlacementsRequest,
} from '@helium/contracts';
import { fieldRefusal, HttpError, notFound } from '../../http/errors.ts';
import { selectorFault } from './selector.ts';

/*
 * A web publisher's placements (publisher_placements), read and replaced by admins (docs/targeting.md
 * "Placements"). A replacement is one transaction with its audit row; the route then reloads the serving index.
 */

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface PlacementsActor {
  userId: number;
  ip: string | null;
  now: Date;
}

type PublisherRow = typeof publishers.$inferSelect;

/** The web publishers, by brand, with how many placements each has stored. */
export async function listPlacementPublishers(db: Database): Promise<TPlacementPublisher[]> {
  const rows = await db
    .select({
      id: publishers.id,
      brand: publishers.brand,
      domain: publishers.domain,
      placementCount: count(publisherPlacements.id),
    })
    .from(publishers)
    .leftJoin(publisherPlacements, eq(publisherPlacements.publisherId, publishers.id))
    .where(eq(publishers.isWeb, true))
    .groupBy(publishers.id)
    .orderBy(asc(publishers.brand), asc(publishers.id));
  return rows.map((row) => ({ ...row, placementCount: Number(row.placementCount) }));
}

/** The publisher, which must exist (404) and be a website (409: a newsletter has no pages to place ads on). */
async function webPublisher(db: Database | Tx, publisherId: number, lock = false): Promise<PublisherRow> {
  const query = db.select().from(publishers).where(eq(publishers.id, publisherId));
  // Locked by a replacement: concurrent admins' saves of one publisher's list run one after the other.
  const [publisher] = lock ? await query.for('update') : await query;
  if (!publisher) throw notFound('No such publisher.');
  if (!publisher.isWeb) {
    throw new HttpError(409, 'notWebPublisher', 'This publisher is a newsletter: placements are for websites.');
  }
  return publisher;
}

async function storedPlacements(db: Database | Tx, publisherId: number): Promise<TPlacement[]> {
  const rows = await db
    .select()
    .from(publisherPlacements)
    .where(eq(publisherPlacements.publisherId, publisherId))
    .orderBy(asc(publisherPlacements.id));
  return rows.map((row) => ({
    id: row.id,
    selector: row.selector,
    position: row.position,
    formatIds: [...row.formatIds],
    device: row.device,
  }));
}

function answer(publisher: PublisherRow, placements: TPlacement[]): TGetPlacementsResponse {
  return {
    publisher: {
      id: publisher.id,
      brand: publisher.brand,
      domain: publisher.domain,
      placementCount: placements.length,
    },
    placements,
  };
}

export async function getPlacements(db: Database, publisherId: number): Promise<TGetPlacementsResponse> {
  const publisher = await webPublisher(db, publisherId);
  return answer(publisher, await storedPlacements(db, publisherId));
}

/**
 * Replaces the publisher's placements with `request.placements`, in that order (an empty list: the default
 * placement again). Every selector must parse (422 `badSelector`, naming the placement, nothing changed).
 * Answers the new list and whether anything changed.
 */
export async function replacePlacements(
  db: Database,
  request: TUpdatePlacementsRequest,
  actor: PlacementsActor,
): Promise<TGetPlacementsResponse & { changed: boolean }> {
  request.placements.forEach((placement, index) => {
    const fault = placement.selector === null ? null : selectorFault(placement.selector);
    if (fault) {
      const message = `Placement ${index + 1}: "${placement.selector}" is not a valid CSS selector: ${fault}.`;
      throw fieldRefusal(422, 'badSelector', message, { path: `placements.${index}.selector`, key: 'cssSelector' });
    }
  });
  const wanted = request.placements.map((placement) => ({
    selector: placement.selector,
    position: placement.position,
    formatIds: [...new Set(placement.formatIds)].sort((a, b) => a - b),
    device: placement.device,
  }));
  return db.transaction(async (tx) => {
    const publisher = await webPublisher(tx, request.publisherId, true);
    const before = await storedPlacements(tx, publisher.id);
    const fields = (list: ReadonlyArray<Omit<TPlacement, 'id'> & { id?: number }>) =>
      JSON.stringify(list.map(({ selector, position, formatIds, device }) => [selector, position, formatIds, device]));
    if (fields(before) === fields(wanted)) return { ...answer(publisher, before), changed: false };
    await tx.delete(publisherPlacements).where(eq(publisherPlacements.publisherId, publisher.id));
    if (wanted.length > 0) {
      await tx
        .insert(publisherPlacements)
        .values(wanted.map((placement) => ({ publisherId: publisher.id, ...placement, createdAt: actor.now })));
    }
    await tx.insert(auditLog).values({
      actorUserId: actor.userId,
      action: 'placements.update',
      targetType: 'publisher',
      targetId: publisher.id,
      details: {
        from: before.map(({ id: _id, ...placement }) => placement),
        to: wanted,
      },
      ip: actor.ip,
      createdAt: actor.now,
    });
    return { ...answer(publisher, await storedPlacements(tx, publisher.id)), changed: true };
  });
}
