import fastifyMultipart from '@fastify/multipart';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ads, campaigns } from '@helium/db';
import { MAX_AD_FILE_BYTES } from '@helium/domain';
import type { TUploadFileResponse } from '@helium/contracts';
import { inspectUpload, uploadMessages } from '../../services/ad-upload.ts';
import { findUserById } from '../../services/users.ts';
import { advertiserIdOf } from './ads.ts';

const isTooLarge = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE';

/**
 * POST /api/advertiser/upload-file (multipart, field `file`): checks the file by name and content,
 * stores it (content-addressed) and creates a not-yet-validated ad in the advertiser's campaign.
 */
export default async function uploadRoutes(app: FastifyInstance) {
  const { db, media } = app.ctx;
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_AD_FILE_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1000 },
  });

  const refuse = (reply: FastifyReply, code: number, status: string, errors: string[]) => {
    const body: TUploadFileResponse & { message: string } = {
      status,
      message: errors[0] ?? 'The file was refused.',
      errors,
      tips: [],
      adId: null,
    };
    return reply.code(code).send(body);
  };

  app.post('/upload-file', async (request, reply) => {
    const advertiserId = advertiserIdOf(request);
    const user = await findUserById(db, request.actor?.userId ?? 0);
    const locale = user?.locale ?? 'en';
    const m = uploadMessages(locale);
    if (user?.cannotAddAds) {
      return refuse(reply, 403, 'cannotAddAds', [
        locale === 'fr' ? "Ce compte ne peut pas ajouter d'annonces." : 'This account may not add ads.',
      ]);
    }
    if (!request.isMultipart()) return refuse(reply, 422, 'noFile', [m.noFile]);

    let fileName = '';
    let bytes: Buffer;
    try {
      const part = await request.file();
      if (!part || part.fieldname !== 'file') {
        part?.file.resume();
        return refuse(reply, 422, 'noFile', [m.noFile]);
      }
      fileName = part.filename.slice(0, 255);
      bytes = await part.toBuffer();
    } catch (error) {
      if (isTooLarge(error)) return refuse(reply, 413, 'fileTooLarge', [m.fileSize]);
      request.log.info({ err: error }, 'unreadable upload');
      return refuse(reply, 400, 'badUpload', [m.noFile]);
    }

    const verdict = await inspectUpload(fileName, bytes, locale);
    if (verdict.kind === 'refused') return refuse(reply, 422, 'fileRefused', verdict.errors);

    const [campaign] = await db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(eq(campaigns.advertiserId, advertiserId))
      .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
      .limit(1);
    if (!campaign) {
      return refuse(reply, 409, 'noCampaign', [
        locale === 'fr'
          ? "Ce compte n'a pas encore de campagne : contactez-nous pour en ouvrir une."
          : 'This account has no campaign yet: contact us to open one.',
      ]);
    }

    const { media: file } = verdict;
    const key = await media.put(file.bytes, file.extension);
    const posterKey = file.poster ? await media.put(file.poster, 'jpg') : null;
    const [ad] = await db
      .insert(ads)
      .values({
        advertiserId,
        campaignId: campaign.id,
        type: file.type,
        image: file.type === 'image' ? key : null,
        mp4: file.type === 'video' ? key : null,
        poster: posterKey,
        isVideoThumbnailReady: file.type === 'video' && posterKey !== null,
        filesize: file.bytes.length,
        width: file.width,
        height: file.height,
        formatId: file.formatId,
        createdAt: app.ctx.clock.now(),
      })
      .returning({ id: ads.id });
    const body: TUploadFileResponse = { status: 'ok', errors: [], tips: verdict.tips, adId: ad?.id ?? null };
    return body;
  });
}
