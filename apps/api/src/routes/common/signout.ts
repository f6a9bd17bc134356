import type { FastifyInstance } from 'fastify';
import type { TStatusResponse } from '@helium/contracts';

/** Revokes the session; answered both at /api/signout and /api/common/signout, as the specification calls both. */
export default async function signoutRoutes(app: FastifyInstance) {
  app.post('/signout', async (request, reply): Promise<TStatusResponse> => {
    await app.endSession(request, reply);
    return { status: 'ok' };
  });
}
