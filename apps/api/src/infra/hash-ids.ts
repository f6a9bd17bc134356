import { createHmac } from 'node:crypto';
import Hashids from 'hashids';

/**
 * Public identifiers for links (hash ids, never database ids). The salt is derived from a configuration
 * value (HASHIDS_SALT, else the session secret, which is kept in DATA_DIR), so links survive restarts.
 * Each purpose has its own alphabet order, so an id made for one purpose never decodes for another.
 */
export class HashIds {
  private readonly ad: Hashids;
  private readonly publisherAdValidation: Hashids;
  private readonly publisher: Hashids;
  private readonly campaign: Hashids;
  private readonly sale: Hashids;

  constructor(secret: string) {
    const salt = (purpose: string) => createHmac('sha256', secret).update(`hashids:${purpose}`).digest('base64url');
    this.ad = new Hashids(salt('ad'), 8);
    this.publisherAdValidation = new Hashids(salt('publisher-ad-validation'), 12);
    this.publisher = new Hashids(salt('publisher'), 8);
    this.campaign = new Hashids(salt('campaign'), 8);
    this.sale = new Hashids(salt('sale'), 10, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789');
  }

  /** A sale in its receipt link (/advertiser/receipt/<this>) and as the payment reference an advertiser quotes. */
  encodeSale(saleId: number): string {
    return this.sale.encode(saleId);
  }

  decodeSale(hashId: string): number | null {
    return single(safeDecode(this.sale, hashId), 1)?.[0] ?? null;
  }

  encodeCampaign(campaignId: number): string {
    return this.campaign.encode(campaignId);
  }

  encodeAd(adId: number): string {
    return this.ad.encode(adId);
  }

  decodeAd(hashId: string): number | null {
    return single(safeDecode(this.ad, hashId), 1)?.[0] ?? null;
  }

  /** The link mailed to one publisher about one ad: /publisher-ad-validation/<this>. */
  encodePublisherAdValidation(adId: number, publisherId: number): string {
    return this.publisherAdValidation.encode(adId, publisherId);
  }

  /** A publisher in its newsletter banner links: /serve/owl/<this>/<banner>/<issue>/image. */
  encodePublisher(publisherId: number): string {
    return this.publisher.encode(publisherId);
  }

  decodePublisher(hashId: string): number | null {
    return single(safeDecode(this.publisher, hashId), 1)?.[0] ?? null;
  }

  decodePublisherAdValidation(hashId: string): { adId: number; publisherId: number } | null {
    const numbers = single(safeDecode(this.publisherAdValidation, hashId), 2);
    return numbers ? { adId: numbers[0] as number, publisherId: numbers[1] as number } : null;
  }
}

function safeDecode(hashids: Hashids, value: string): number[] {
  try {
    const numbers = hashids.decode(value).map(Number);
    // Hashids decodes some foreign strings to numbers; only a string it would produce itself is genuine.
    return hashids.encode(numbers) === value ? numbers : [];
  } catch {
    return [];
  }
}

function single(numbers: number[], length: number): number[] | null {
  if (numbers.length !== length) return null;
  return numbers.every((n) => Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647) ? numbers : null;
}
