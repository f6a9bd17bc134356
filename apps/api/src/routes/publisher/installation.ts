import type { FastifyInstance } from 'fastify';
import type { TCheckInstallResponse, TGetInstallationDataResponse } from '@helium/contracts';
import { forbidden } from '../../errors.ts';
import { checkInstall, installationData } from '../../services/installation.ts';
import { wordpressPluginZip } from '../../services/wordpress-plugin.ts';

/** Publisher Installation (specification 02, sections 2.9 and 3): for the publisher account in use only. */
export default async function installationRoutes(app: FastifyInstance) {
  const { db, config, hashIds } = app.ctx;
  const publisherIdOf = (actor: { accountId: number | null } | null) => {
    if (!actor?.accountId) throw forbidden();
    return actor.accountId;
  };
  const dataFor = (actor: { userId: number; accountId: number | null } | null) => {
    if (!actor?.accountId) throw forbidden();
    return installationData(db, config, hashIds, actor.accountId, actor.userId);
  };

  app.post('/get-installation-data', async (request): Promise<TGetInstallationDataResponse> => dataFor(request.actor));

  app.post('/check-install', async (request): Promise<TCheckInstallResponse> =>
    checkInstall(db, publisherIdOf(request.actor)),
  );

  /** The WordPress plug-in of the French instructions, carrying this publisher's line of code (a download link). */
  app.get('/wordpress-plugin.zip', async (request, reply) => {
    const data = await dataFor(request.actor);
    return reply
      .type('application/zip')
      .header('content-disposition', 'attachment; filename="helium-ads.zip"')
      .header('cache-control', 'private, no-store')
      .send(wordpressPluginZip(data.lineOfCode1, data.publisher.brand));
  });
}
