import type { FastifyInstance } from 'fastify';
import signinRoutes from './signin.ts';
import signoutRoutes from './signout.ts';
import userActivityRoutes from './user-activity.ts';
import userRoutes from './user.ts';

/** Calls open to every signed-in user (and sign-in itself). */
export default async function commonRoutes(app: FastifyInstance) {
  await app.register(signinRoutes);
  await app.register(userRoutes);
  await app.register(signoutRoutes);
  await app.register(userActivityRoutes);
}
