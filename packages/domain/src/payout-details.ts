import { bech32, bech32m } from 'bech32';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';

/*
 * Payout details (specification 02, sections 2.8 and 5), checked beyond the specification's minimum lengths where
 * a real check exists: an IBAN's checksum (ibantools), a BIC's shape, a bech32 address's checksum. Each check
 * answers the first failing field, so the screen focuses it and nothing is saved.
 */

/** Legacy addresses (1..., 3...): 26 to 35 base58 characters (section 5). */
const LEGACY_ADDRESS = /^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/;
/** bech32 addresses: bc1 then 39 to 59 lowercase characters of the bech32 alphabet (section 5). */
const BECH32_ADDRESS = /^bc1[02-9ac-hj-np-z]{39,59}$/;

export function isBitcoinAddress(address: string): boolean {
  const text = address.trim();
  if (LEGACY_ADDRESS.test(text)) return true;
  if (!BECH32_ADDRESS.test(text)) return false;
  // Segwit v0 addresses use bech32, v1 (taproot) and later bech32m: the checksum must hold in one of them.
  for (const codec of [bech32, bech32m]) {
    const decoded = codec.decodeUnsafe(text, 90);
    if (decoded && decoded.prefix === 'bc') return true;
  }
  return false;
}

/** An e-mail address as PayPal takes it: one @, a dotted domain, no spaces. */
export function isPaypalEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) && email.trim().length <= 254;
}

export interface WireDetails {
  bankName: string;
  bic: string;
  iban: string;
  userName: string;
  userAddress: string;
  userPhoneNumber: string;
}

/** The wire fields in the screen's order, each with its message key (section 5). */
export const WIRE_FIELDS = ['bankName', 'bic', 'iban', 'userName', 'userAddress', 'userPhoneNumber'] as const;
export type WireField = (typeof WIRE_FIELDS)[number];

export const WIRE_ERROR_KEYS: Record<Exclude<WireField, 'userPhoneNumber'>, string> = {
  bankName: 'settings.formWireBankNameError',
  bic: 'settings.formWireBicError',
  iban: 'settings.formWireIbanError',
  userName: 'settings.formWireHolderNameError',
  userAddress: 'settings.formWireHolderAddressError',
};

/** An IBAN as stored: capitals, no spaces. */
export const normalIban = (iban: string) => electronicFormatIBAN(iban) ?? iban.replace(/\s+/g, '').toUpperCase();
export const normalBic = (bic: string) => bic.replace(/\s+/g, '').toUpperCase();

/** The first wire field that is wrong, or null (the phone number is not checked, section 5). */
export function firstWireProblem(wire: WireDetails): WireField | null {
  if (wire.bankName.trim().length < 1) return 'bankName';
  if (!isValidBIC(normalBic(wire.bic))) return 'bic';
  if (!isValidIBAN(normalIban(wire.iban))) return 'iban';
  if (wire.userName.trim().length < 1) return 'userName';
  if (wire.userAddress.trim().length < 1) return 'userAddress';
  return null;
}
