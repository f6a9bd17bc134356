import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AD_UPLOAD_RATE, MAX_AD_FILE_BYTES } from '@helium/domain';
import { uploadFileCall, type TUploadFileResponse } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { findUserById } from '../account/users.ts';
import { createUploadedAd, newestCampaign } from './ads.ts';
import { storePreview } from './previews.ts';
import { inspectUpload, uploadMessages } from './upload.ts';

const isTooLarge = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE';

/** A refused upload: its own status code, and the same body shape as an accepted one (the screen shows `errors`). */
function refuse(reply: FastifyReply, code: number, status: string, errors: string[]) {
  const body: TUploadFileResponse & { message: string } = {
    status,
    message: errors[0] ?? 'The file was refused.',
    errors,
    tips: [],
    adId: null,
  };
  return reply.code(code).send(body);
}

/** Seconds after which an upload refused because every decoder is busy may be tried again. */
const BUSY_RETRY_AFTER_S = 30;

/**
 * POST /api/advertiser/upload-file (multipart, field `file`): checks the file by name and content,
 * stores it (content-addressed) and creates a not-yet-validated ad in the advertiser's campaign.
 * Every attempt counts for the advertiser's upload rate (AD_UPLOAD_RATE), before the file is read.
 */
export default async function uploadRoutes(app: FastifyInstance) {
  const { db, media, clock, limiter } = app.ctx;
  const uploadRate = limiter.rule(AD_UPLOAD_RATE);
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_AD_FILE_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1000 },
  });

  route(app, uploadFileCall, async ({ actor, request, reply }) => {
    const m = uploadMessages(actor.locale);
    const user = await findUserById(db, actor.userId);
    if (user?.cannotAddAds) return refuse(reply, 403, 'cannotAddAds', [m.cannotAddAds]);
    if (!request.isMultipart()) return refuse(reply, 422, 'noFile', [m.noFile]);
    if (!(await uploadRate.allow(request, `upload:advertiser:${actor.accountId}`))) {
      return refuse(reply, 429, 'tooManyUploads', [m.tooManyUploads]);
    }

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

    const verdict = await inspectUpload(fileName, bytes, actor.locale);
    if (verdict.kind === 'busy') {
      reply.header('retry-after', String(BUSY_RETRY_AFTER_S));
      return refuse(reply, 503, 'serverBusy', verdict.errors);
    }
    if (verdict.kind === 'refused') return refuse(reply, 422, 'fileRefused', verdict.errors);
    const campaignId = (await newestCampaign(db, actor.accountId))?.id;
    if (campaignId === undefined) return refuse(reply, 409, 'noCampaign', [m.noCampaign]);

    const key = await media.put(verdict.media.bytes, verdict.media.extension);
    const posterKey = verdict.media.poster ? await media.put(verdict.media.poster, 'jpg') : null;
    // The thumbnails' preview, from the image or the poster. A convenience only: when it cannot be made (no ffmpeg,
    // a failure, every decoder busy) the ad has none yet, the screens show the full media and the job tries again.
    const accepted = verdict.media;
    const picture =
      accepted.type === 'image'
        ? { key, bytes: accepted.bytes }
        : posterKey && accepted.poster
          ? { key: posterKey, bytes: accepted.poster }
          : null;
    const previewKey = picture ? await storePreview(media, picture).catch(() => null) : null;
    const adId = await createUploadedAd(db, {
      advertiserId: actor.accountId,
      campaignId,
      media: verdict.media,
      key,
      posterKey,
      previewKey,
      createdAt: clock.now(),
    });
    return { status: 'ok', errors: [], tips: verdict.tips, adId };
  });
}
