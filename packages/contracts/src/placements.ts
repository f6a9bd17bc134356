import { z } from 'zod';
import { AD_FORMAT, isNewsletterFormat } from '@helium/domain/ads';
import { defineCall } from './call.ts';
import { ZIdSchema } from './common.ts';
import { TEXT_LIMITS } from './limits.ts';

/*
 * Placements (issue 25, item 5; docs/targeting.md "Placements", docs/admin.md): where the publisher script puts
 * ads on a web publisher's pages. An admin reads and replaces a publisher's whole list; an empty list gives the
 * publisher the default placement again. The API also parses each selector with a CSS selector parser
 * (apps/api/src/features/placements/selector.ts): one that does not parse is refused with 422 `badSelector`.
 */

export const PLACEMENT_POSITIONS = ['inside', 'before', 'after'] as const;
export const PLACEMENT_DEVICES = ['all', 'desktop', 'mobile'] as const;
/** The formats a web placement may accept (every format but the newsletter's). */
export const WEB_FORMAT_IDS = Object.values(AD_FORMAT).filter((id) => !isNewsletterFormat(id));
/** Most placements a publisher may have (each one is an ad slot on every pageview). */
export const MAX_PLACEMENTS = 20;

/** A placement as an admin edits it; `selector` null = the default placement (`[data-helium-slot]` or a corner box). */
export const ZPlacementFieldsSchema = z
  .object({
    selector: z.string().trim().min(1, 'Type a CSS selector').max(TEXT_LIMITS.cssSelector).nullable(),
    position: z.enum(PLACEMENT_POSITIONS),
    /** Accepted formats; empty = any web format. */
    formatIds: z
      .array(
        z
          .number()
          .int()
          .refine((id) => (WEB_FORMAT_IDS as readonly number[]).includes(id), 'Not a web ad format'),
      )
      .max(WEB_FORMAT_IDS.length),
    device: z.enum(PLACEMENT_DEVICES),
  })
  .strict();
export type TPlacementFields = z.infer<typeof ZPlacementFieldsSchema>;

export const ZPlacementSchema = ZPlacementFieldsSchema.extend({ id: z.number().int() });
export type TPlacement = z.infer<typeof ZPlacementSchema>;

/** A web publisher as the placements screen lists it. */
export const ZPlacementPublisherSchema = z.object({
  id: z.number().int(),
  brand: z.string(),
  /** The registered domain (the preview frames https://<domain>/). */
  domain: z.string().nullable(),
  placementCount: z.number().int(),
});
export type TPlacementPublisher = z.infer<typeof ZPlacementPublisherSchema>;

/** POST /api/admin/get-placement-publishers: every web publisher, by brand. */
export const getPlacementPublishersCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-placement-publishers',
  access: 'admin',
  request: null,
  response: z.object({ publishers: z.array(ZPlacementPublisherSchema) }),
});

/** POST /api/admin/get-placements: a web publisher's placements in their order (404 unknown, 409 a newsletter). */
export const ZGetPlacementsRequestSchema = z.object({ publisherId: ZIdSchema }).strict();
export const ZGetPlacementsResponseSchema = z.object({
  publisher: ZPlacementPublisherSchema,
  placements: z.array(ZPlacementSchema),
});
export type TGetPlacementsResponse = z.infer<typeof ZGetPlacementsResponseSchema>;

export const getPlacementsCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-placements',
  access: 'admin',
  request: ZGetPlacementsRequestSchema,
  response: ZGetPlacementsResponseSchema,
});

/** POST /api/admin/update-placements: replaces the list (in this order); audited, served at once. */
export const ZUpdatePlacementsRequestSchema = z
  .object({
    publisherId: ZIdSchema,
    placements: z.array(ZPlacementFieldsSchema).max(MAX_PLACEMENTS),
  })
  .strict();
export type TUpdatePlacementsRequest = z.infer<typeof ZUpdatePlacementsRequestSchema>;

export const updatePlacementsCall = defineCall({
  method: 'POST',
  path: '/api/admin/update-placements',
  access: 'admin',
  request: ZUpdatePlacementsRequestSchema,
  response: ZGetPlacementsResponseSchema.extend({ status: z.literal('ok') }),
});

export const PLACEMENTS_CALLS = [getPlacementPublishersCall, getPlacementsCall, updatePlacementsCall] as const;
