import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signed tokens of the serving endpoints: `<payload>.<signature>`, both base64url. The payload names the
 * token's kind (`v` view, `c` click), the decision and an expiry; the signature is an HMAC with a key
 * derived from the session secret, so a token cannot be forged or turned into another kind.
 */
export type TokenKind = 'v' | 'c';

export interface TokenPayload {
  kind: TokenKind;
  decisionId: string;
  /** Epoch seconds. */
  expiresAt: number;
  /**
   * What the decision was (publisher, ad, device), so that a view or click still counts when the decision's
   * record never became durable (decisions are answered before their batch commits; a crash may lose the
   * last ones). Absent from tokens signed before it was added.
   */
  served?: { publisherId: number; adId: number; device: 'desktop' | 'mobile' };
}

export function deriveKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`helium-delivery:${purpose}`).digest();
}

/** Random bytes drawn ahead in blocks (one system call per block instead of per id). */
const ID_POOL_SIZE = 4096;
let idPool = randomBytes(ID_POOL_SIZE);
let idPoolOffset = 0;

export function newId(bytes = 12): string {
  if (bytes > ID_POOL_SIZE) return randomBytes(bytes).toString('base64url');
  if (idPoolOffset + bytes > ID_POOL_SIZE) {
    idPool = randomBytes(ID_POOL_SIZE);
    idPoolOffset = 0;
  }
  const id = idPool.toString('base64url', idPoolOffset, idPoolOffset + bytes);
  idPoolOffset += bytes;
  return id;
}

export class TokenSigner {
  constructor(private readonly key: Buffer) {}

  private signature(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, 16);
  }

  sign(token: TokenPayload): string {
    const served = token.served
      ? `|${token.served.publisherId}|${token.served.adId}|${token.served.device === 'mobile' ? 'm' : 'd'}`
      : '';
    const payload = Buffer.from(`${token.kind}|${token.decisionId}|${token.expiresAt}${served}`).toString('base64url');
    return `${payload}.${this.signature(payload).toString('base64url')}`;
  }

  /** The payload of a genuine token of this kind, or null (forged, mangled, other kind). Expiry is the caller's. */
  verify(token: unknown, kind: TokenKind): TokenPayload | null {
    if (typeof token !== 'string' || token.length > 200) return null;
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const payload = token.slice(0, dot);
    const sent = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = this.signature(payload);
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return null;
    const [tokenKind, decisionId, expiresAt, publisherId, adId, device] = Buffer.from(payload, 'base64url')
      .toString()
      .split('|');
    const seconds = Number(expiresAt);
    if (tokenKind !== kind || !decisionId || !Number.isInteger(seconds)) return null;
    const publisher = Number(publisherId);
    const ad = Number(adId);
    const served =
      Number.isInteger(publisher) &&
      publisher > 0 &&
      Number.isInteger(ad) &&
      ad > 0 &&
      (device === 'd' || device === 'm')
        ? { publisherId: publisher, adId: ad, device: device === 'm' ? ('mobile' as const) : ('desktop' as const) }
        : undefined;
    return served ? { kind, decisionId, expiresAt: seconds, served } : { kind, decisionId, expiresAt: seconds };
  }
}
