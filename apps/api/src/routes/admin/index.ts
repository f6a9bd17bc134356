import type { FastifyInstance } from 'fastify';
import { USER_TYPE } from '@helium/domain';
import { gateByType } from '../../plugins/role-gate.ts';
import activityRoutes from './activity.ts';
import adValidationRoutes from './ad-validation.ts';
import usersRoutes from './users.ts';

/** Admin calls: every route here is behind the admin gate. */
export default async function adminRoutes(app: FastifyInstance) {
  gateByType(app, USER_TYPE.admin);
  await app.register(usersRoutes);
  await app.register(adValidationRoutes);
  await app.register(activityRoutes);
}
