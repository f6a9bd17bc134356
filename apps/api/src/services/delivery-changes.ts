import type { FastifyInstance } from 'fastify';

/**
 * What changed for ad delivery: the campaign activity calls announce every change that alters which ads
 * may be served (switches, ejection, budget, AutoFlow cap, AutoPilot) so that the delivery engine reloads
 * its in-memory index at once. The engine subscribes with `onDeliveryChange(app, listener)`.
 */
export interface DeliveryChange {
  campaignId: number;
  adId?: number;
  reason: 'activation' | 'ejection' | 'budget' | 'autoFlow' | 'autoPilot';
}

type Listener = (change: DeliveryChange) => Promise<void> | void;

// Keyed by the app's context object, which every encapsulated plugin of one app shares.
const listeners = new WeakMap<object, Listener[]>();

const rootOf = (app: FastifyInstance): object => app.ctx;

export function onDeliveryChange(app: FastifyInstance, listener: Listener): void {
  const root = rootOf(app);
  const list = listeners.get(root) ?? [];
  list.push(listener);
  listeners.set(root, list);
}

/** Tells the delivery engine; answers once every listener has applied the change. */
export async function announceDeliveryChange(app: FastifyInstance, change: DeliveryChange): Promise<void> {
  for (const listener of listeners.get(rootOf(app)) ?? []) await listener(change);
}
