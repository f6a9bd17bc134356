import type { FastifyInstance } from 'fastify';
import {
  checkInstallCall,
  getInstallationDataCall,
  WORDPRESS_PLUGIN_FILE,
  WORDPRESS_PLUGIN_PATH,
} from '@helium/contracts';
import { gate } from '../../http/gate.ts';
import { route } from '../../http/route.ts';
import { checkInstall, installationData } from './installation.ts';
import { wordpressPluginZip } from './wordpress-plugin.ts';

/** Publisher Installation (specification 02, sections 2.9 and 3): for the publisher account in use only. */
export default async function installationRoutes(app: FastifyInstance) {
  const { db, config, hashIds } = app.ctx;
  const dataFor = (actor: { userId: number; accountId: number }) =>
    installationData(db, config, hashIds, actor.accountId, actor.userId);

  route(app, getInstallationDataCall, async ({ actor }) => dataFor(actor));
  route(app, checkInstallCall, async ({ actor }) => checkInstall(db, actor.accountId));

  /** The WordPress plug-in of the French instructions, carrying this publisher's line of code (a download link). */
  app.get(WORDPRESS_PLUGIN_PATH, async (request, reply) => {
    const data = await dataFor(await gate(request, 'publisher'));
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${WORDPRESS_PLUGIN_FILE}"`)
      .header('cache-control', 'private, no-store')
      .send(wordpressPluginZip(data.lineOfCode1, data.publisher.brand));
  });
}
