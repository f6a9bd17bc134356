import type { FastifyInstance } from 'fastify';
import type { TCheckInstallResponse, TGetInstallationDataResponse } from '@helium/contracts';
import { forbidden } from '../../errors.ts';
import { checkInstall, installationData } from '../../services/installation.ts';

/** Publisher Installation (specification 02, sections 2.9 and 3): for the publisher account in use only. */
export default async function installationRoutes(app: FastifyInstance) {
  const publisherIdOf = (actor: { accountId: number | null } | null) => {
    if (!actor?.accountId) throw forbidden();
    return actor.accountId;
  };

  app.post('/get-installation-data', async (request): Promise<TGetInstallationDataResponse> =>
    installationData(app.ctx.db, app.ctx.config, app.ctx.hashIds, publisherIdOf(request.actor)),
  );

  app.post('/check-install', async (request): Promise<TCheckInstallResponse> =>
    checkInstall(app.ctx.db, publisherIdOf(request.actor)),
  );
}
