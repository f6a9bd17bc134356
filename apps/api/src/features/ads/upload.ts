import {
  AD_FORMAT,
  AD_UPLOAD_RATE,
  HEAVY_IMAGE_BYTES,
  HEAVY_VIDEO_BYTES,
  MAX_AD_FILE_BYTES,
  MAX_AD_IMAGE_PIXELS,
  MIN_AD_SIDE_PX,
  adFileExtension,
  adFormatFromDimensions,
  exceedsAdPixelLimit,
  type AdFormatId,
} from '@helium/domain';
import type { Locale } from '@helium/domain/format';
import {
  DecodersBusyError,
  decodeImage,
  imageDimensions,
  sniffMediaType,
  videoDimensions,
  videoPoster,
} from '../../infra/media-probe.ts';
import type { MediaExtension } from '../../infra/media-storage.ts';

const MB = 1024 * 1024;
/** The pixel limit in the texts: "16.8" (million) and the side of a square at the limit, 4096. */
const MAX_MEGAPIXELS = (MAX_AD_IMAGE_PIXELS / 1_000_000).toFixed(1);
const MAX_SQUARE_SIDE = Math.floor(Math.sqrt(MAX_AD_IMAGE_PIXELS));

const MESSAGES = {
  en: {
    noFile: 'No file was sent. Choose a jpg, jpeg, png or mp4 file.',
    emptyFile: 'The file is empty.',
    fileFormat: (name: string) => `"${name}" is not accepted: only jpg, jpeg, png and mp4 files can be uploaded.`,
    fileSize: `The file is larger than ${MAX_AD_FILE_BYTES / MB} MB.`,
    contentMismatch: (name: string, expected: string) =>
      `"${name}" is not really a ${expected} file: its content does not match its name.`,
    corruptImage: 'The image is damaged and cannot be read. Export it again and upload the new file.',
    corruptVideo: 'The video is damaged or uses a format that cannot be read. Export it again as H.264 mp4.',
    tooSmall: (w: number, h: number) =>
      `The image is too small (${w} x ${h} pixels): each side must be at least ${MIN_AD_SIDE_PX} pixels.`,
    tooManyPixels: (w: number, h: number) =>
      `The image is too large (${w} x ${h} pixels): an ad may have at most ${MAX_MEGAPIXELS} million pixels, such as ${MAX_SQUARE_SIDE} x ${MAX_SQUARE_SIDE}.`,
    videoTooManyPixels: (w: number, h: number) =>
      `The video is too large (${w} x ${h} pixels): an ad may have at most ${MAX_MEGAPIXELS} million pixels per frame, such as ${MAX_SQUARE_SIDE} x ${MAX_SQUARE_SIDE}.`,
    tooManyUploads: `Too many files were sent: an advertiser may upload at most ${AD_UPLOAD_RATE.limit} files per hour. Try again later.`,
    serverBusy: 'The server is checking many files right now: try again in a minute.',
    heavyImage: (size: string) =>
      `The image weighs ${size}: a lighter file (under ${HEAVY_IMAGE_BYTES / 1024} KB) loads faster and gets more views.`,
    heavyVideo: (size: string) =>
      `The video weighs ${size}: a lighter file (under ${HEAVY_VIDEO_BYTES / MB} MB) starts faster on mobile.`,
    lowResolution: (w: number, h: number) =>
      `The image is only ${w} x ${h} pixels: it may look blurry on high-resolution screens.`,
    vertical: 'This vertical ad will be shown on computers only, never on mobile.',
    noPoster: 'The preview image of this video could not be made yet; it will be shown once it exists.',
    cannotAddAds: 'This account may not add ads.',
    noCampaign: 'This account has no campaign yet: contact us to open one.',
  },
  fr: {
    noFile: "Aucun fichier n'a été envoyé. Choisissez un fichier jpg, jpeg, png ou mp4.",
    emptyFile: 'Le fichier est vide.',
    fileFormat: (name: string) =>
      `« ${name} » n'est pas accepté : seuls les fichiers jpg, jpeg, png et mp4 peuvent être envoyés.`,
    fileSize: `Le fichier dépasse ${MAX_AD_FILE_BYTES / MB} Mo.`,
    contentMismatch: (name: string, expected: string) =>
      `« ${name} » n'est pas vraiment un fichier ${expected} : son contenu ne correspond pas à son nom.`,
    corruptImage:
      "L'image est endommagée et ne peut pas être lue. Exportez-la de nouveau et envoyez le nouveau fichier.",
    corruptVideo: 'La vidéo est endommagée ou dans un format illisible. Exportez-la de nouveau en mp4 H.264.',
    tooSmall: (w: number, h: number) =>
      `L'image est trop petite (${w} x ${h} pixels) : chaque côté doit mesurer au moins ${MIN_AD_SIDE_PX} pixels.`,
    tooManyPixels: (w: number, h: number) =>
      `L'image est trop grande (${w} x ${h} pixels) : une annonce peut compter au plus ${MAX_MEGAPIXELS.replace('.', ',')} millions de pixels, par exemple ${MAX_SQUARE_SIDE} x ${MAX_SQUARE_SIDE}.`,
    videoTooManyPixels: (w: number, h: number) =>
      `La vidéo est trop grande (${w} x ${h} pixels) : une annonce peut compter au plus ${MAX_MEGAPIXELS.replace('.', ',')} millions de pixels par image, par exemple ${MAX_SQUARE_SIDE} x ${MAX_SQUARE_SIDE}.`,
    tooManyUploads: `Trop de fichiers ont été envoyés : un annonceur peut envoyer au plus ${AD_UPLOAD_RATE.limit} fichiers par heure. Réessayez plus tard.`,
    serverBusy: 'Le serveur vérifie beaucoup de fichiers en ce moment : réessayez dans une minute.',
    heavyImage: (size: string) =>
      `L'image pèse ${size} : un fichier plus léger (moins de ${HEAVY_IMAGE_BYTES / 1024} Ko) s'affiche plus vite et obtient plus de vues.`,
    heavyVideo: (size: string) =>
      `La vidéo pèse ${size} : un fichier plus léger (moins de ${HEAVY_VIDEO_BYTES / MB} Mo) démarre plus vite sur mobile.`,
    lowResolution: (w: number, h: number) =>
      `L'image ne fait que ${w} x ${h} pixels : elle peut paraître floue sur les écrans haute résolution.`,
    vertical: 'Cette annonce verticale sera affichée sur ordinateur uniquement, jamais sur mobile.',
    noPoster: "L'image d'aperçu de cette vidéo n'a pas encore pu être créée ; elle s'affichera dès qu'elle existera.",
    cannotAddAds: "Ce compte ne peut pas ajouter d'annonces.",
    noCampaign: "Ce compte n'a pas encore de campagne : contactez-nous pour en ouvrir une.",
  },
} as const;

export function uploadMessages(locale: Locale) {
  return MESSAGES[locale] ?? MESSAGES.en;
}

function sizeText(bytes: number, locale: Locale): string {
  const unit = locale === 'fr' ? ['Ko', 'Mo'] : ['KB', 'MB'];
  const text = bytes >= MB ? `${(bytes / MB).toFixed(1)} ${unit[1]}` : `${Math.round(bytes / 1024)} ${unit[0]}`;
  return locale === 'fr' ? text.replace('.', ',') : text;
}

export interface AcceptedMedia {
  type: 'image' | 'video';
  extension: MediaExtension;
  bytes: Uint8Array;
  poster: Buffer | null;
  width: number | null;
  height: number | null;
  formatId: AdFormatId;
}

export type UploadVerdict =
  | { kind: 'refused'; errors: string[] }
  | { kind: 'accepted'; media: AcceptedMedia; tips: string[] }
  /** Every decoder is busy and the queue is full: nothing was checked, the uploader may try again. */
  | { kind: 'busy'; errors: string[] };

const LABEL: Record<MediaExtension, string> = { jpg: 'JPEG', png: 'PNG', mp4: 'MP4' };

/**
 * Checks an uploaded file by name and by content and decides its format. Refusals carry `errors`
 * (nothing is stored); an accepted file may carry `tips`. Texts are in the uploader's language.
 * Dimensions are checked from the header before any decode; decodes go through the server's bounded pool
 * of decoders, and the answer is `busy` when it is full.
 */
export async function inspectUpload(fileName: string, bytes: Uint8Array, locale: Locale): Promise<UploadVerdict> {
  try {
    return await inspect(fileName, bytes, locale);
  } catch (error) {
    if (error instanceof DecodersBusyError) return { kind: 'busy', errors: [uploadMessages(locale).serverBusy] };
    throw error;
  }
}

async function inspect(fileName: string, bytes: Uint8Array, locale: Locale): Promise<UploadVerdict> {
  const m = uploadMessages(locale);
  const nameExtension = adFileExtension(fileName);
  if (!nameExtension) return { kind: 'refused', errors: [m.fileFormat(fileName)] };
  if (bytes.length === 0) return { kind: 'refused', errors: [m.emptyFile] };
  if (bytes.length > MAX_AD_FILE_BYTES) return { kind: 'refused', errors: [m.fileSize] };
  const expected: MediaExtension = nameExtension === 'jpeg' ? 'jpg' : nameExtension;
  const actual = sniffMediaType(bytes);
  if (actual !== expected) return { kind: 'refused', errors: [m.contentMismatch(fileName, LABEL[expected])] };

  const tips: string[] = [];
  if (expected === 'mp4') {
    const announced = videoDimensions(bytes);
    if (announced && exceedsAdPixelLimit(announced.width, announced.height)) {
      return { kind: 'refused', errors: [m.videoTooManyPixels(announced.width, announced.height)] };
    }
    const poster = await videoPoster(bytes);
    if (poster.kind === 'corrupt') return { kind: 'refused', errors: [m.corruptVideo] };
    if (bytes.length > HEAVY_VIDEO_BYTES) tips.push(m.heavyVideo(sizeText(bytes.length, locale)));
    if (poster.kind === 'unavailable') {
      tips.push(m.noPoster);
      return {
        kind: 'accepted',
        tips,
        media: {
          type: 'video',
          extension: 'mp4',
          bytes,
          poster: null,
          width: null,
          height: null,
          formatId: AD_FORMAT.horizontal,
        },
      };
    }
    if (poster.width < MIN_AD_SIDE_PX || poster.height < MIN_AD_SIDE_PX) {
      return { kind: 'refused', errors: [m.tooSmall(poster.width, poster.height)] };
    }
    const formatId = adFormatFromDimensions(poster.width, poster.height);
    if (formatId === AD_FORMAT.vertical) tips.push(m.vertical);
    return {
      kind: 'accepted',
      tips,
      media: {
        type: 'video',
        extension: 'mp4',
        bytes,
        poster: poster.poster,
        width: poster.width,
        height: poster.height,
        formatId,
      },
    };
  }

  const size = imageDimensions(bytes);
  if (!size) return { kind: 'refused', errors: [m.corruptImage] };
  if (exceedsAdPixelLimit(size.width, size.height)) {
    return { kind: 'refused', errors: [m.tooManyPixels(size.width, size.height)] };
  }
  if ((await decodeImage(bytes, expected)) === 'corrupt') return { kind: 'refused', errors: [m.corruptImage] };
  if (size.width < MIN_AD_SIDE_PX || size.height < MIN_AD_SIDE_PX) {
    return { kind: 'refused', errors: [m.tooSmall(size.width, size.height)] };
  }
  const formatId = adFormatFromDimensions(size.width, size.height);
  if (bytes.length > HEAVY_IMAGE_BYTES) tips.push(m.heavyImage(sizeText(bytes.length, locale)));
  if (Math.max(size.width, size.height) < 250) tips.push(m.lowResolution(size.width, size.height));
  if (formatId === AD_FORMAT.vertical) tips.push(m.vertical);
  return {
    kind: 'accepted',
    tips,
    media: { type: 'image', extension: expected, bytes, poster: null, ...size, formatId },
  };
}
