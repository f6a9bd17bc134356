import type { FastifyInstance } from 'fastify';
import { USER_TYPE } from '@helium/domain';
import { gateByType } from '../../plugins/role-gate.ts';
import adsRoutes from './ads.ts';
import campaignActivityRoutes from './campaign-activity.ts';
import uploadRoutes from './upload.ts';

/** Advertiser calls: every route here is behind the advertiser gate. */
export default async function advertiserRoutes(app: FastifyInstance) {
  gateByType(app, USER_TYPE.advertiser);
  await app.register(adsRoutes);
  await app.register(uploadRoutes);
  await app.register(campaignActivityRoutes);
}
