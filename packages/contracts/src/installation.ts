import { z } from 'zod';
import { defineCall } from './call.ts';

/*
 * The publisher's installation calls (specification 02, sections 2.9, 3 'Installation data' and 7). Both
 * take an empty body and answer for the publisher account in use.
 */

/** The progress bar's default duration in seconds (specification 02, section 5: must be greater than 0). */
export const DEFAULT_INSTALL_CHECK_SECONDS = 5;

/** The file name of the WordPress plug-in: the download link's, the saved file's and the instructions' (one name). */
export const WORDPRESS_PLUGIN_FILE = 'helium-ads.zip';
/** The WordPress plug-in carrying the publisher's line of code (a download link, not a JSON call). */
export const WORDPRESS_PLUGIN_PATH = `/api/publisher/${WORDPRESS_PLUGIN_FILE}`;

/** What a newsletter tool puts in place of each issue's id (Mailchimp's merge tag; other tools have their own). */
export const NEWSLETTER_ISSUE_PLACEHOLDER = '*|CAMPAIGN_UID|*';

export const ZGetInstallationDataResponseSchema = z.object({
  publisher: z.object({ id: z.number().int().positive(), brand: z.string() }),
  /** The one line to paste between the head tags of each page. */
  lineOfCode1: z.string(),
  /** Seconds the progress bar runs while the installation is checked; greater than 0. */
  publisherInstallCheckTimout: z.number().positive(),
  /** The newsletter installation tutorial; null for publishers without a newsletter. */
  tutorialUrl: z.string().nullable(),
  tutorialMinutes: z.number().int().positive().nullable(),
  /** The top and bottom newsletter banner snippets; null for publishers without a newsletter. */
  owlHtmlBanner1: z.string().nullable(),
  owlHtmlBanner2: z.string().nullable(),
});
export type TGetInstallationDataResponse = z.infer<typeof ZGetInstallationDataResponseSchema>;

export const ZCheckInstallResponseSchema = z.object({
  /** The script's heartbeat came from the publisher's registered domain (a newsletter: its banner image was requested). */
  isInstalled: z.boolean(),
  /** The registered domain the script is expected on (null when none is registered). */
  domain: z.string().nullable(),
  /** When the script was last seen on that domain (ISO date and time), null when never. */
  lastSeenAt: z.string().nullable(),
});
export type TCheckInstallResponse = z.infer<typeof ZCheckInstallResponseSchema>;

export const getInstallationDataCall = defineCall({
  method: 'POST',
  path: '/api/publisher/get-installation-data',
  access: 'publisher',
  request: null,
  response: ZGetInstallationDataResponseSchema,
});

export const checkInstallCall = defineCall({
  method: 'POST',
  path: '/api/publisher/check-install',
  access: 'publisher',
  request: null,
  response: ZCheckInstallResponseSchema,
});
