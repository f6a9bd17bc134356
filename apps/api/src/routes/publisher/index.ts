import type { FastifyInstance } from 'fastify';
import { USER_TYPE } from '@helium/domain';
import { gateByType } from '../../plugins/role-gate.ts';
import installationRoutes from './installation.ts';
import performanceRoutes from './performance.ts';

/** Publisher calls: every route here is behind the publisher gate. */
export default async function publisherRoutes(app: FastifyInstance) {
  gateByType(app, USER_TYPE.publisher);
  await app.register(installationRoutes);
  await app.register(performanceRoutes);
}
