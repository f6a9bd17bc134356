import { auditLog, payoutMethods, type Database } from '@helium/db';
import type { Locale } from '@helium/domain';
import {
  WIRE_ERROR_KEYS,
  firstWireProblem,
  isBitcoinAddress,
  isPaypalEmail,
  normalBic,
  normalIban,
} from '@helium/domain/payout-details';
import type { PayoutMethod } from '@helium/domain/payouts';
import type { TPublisherSettings, TSavePublisherSettingsRequest } from '@helium/contracts';
import { HttpError } from '../../http/errors.ts';
import { findPublisher, payoutSetup, type PayoutDetails, type SettingsRow } from './accounting.ts';

/*
 * The publisher's payout Settings (specification 02, sections 2.8 and 5): one card per authorised method. Details
 * are checked beyond the specification's minimum lengths (an IBAN's checksum, a BIC's shape, a bech32 checksum);
 * the first failing field is answered and nothing is saved.
 */

/** POST /api/publisher/get-settings: the authorised methods and every method's form (empty strings when unset). */
export async function publisherSettings(
  db: Database,
  publisherId: number,
  settings: SettingsRow,
): Promise<TPublisherSettings> {
  const setup = await payoutSetup(db, await findPublisher(db, publisherId), settings);
  const value = (method: PayoutMethod, field: string) => setup.configured.get(method)?.[field] ?? '';
  return {
    authorizedPayoutMethods: setup.authorizedMethods,
    form: {
      bitcoin: { address: value('bitcoin', 'address') },
      paypal: { email: value('paypal', 'email') },
      wire: {
        bankName: value('wire', 'bankName'),
        bic: value('wire', 'bic'),
        iban: value('wire', 'iban'),
        userName: value('wire', 'userName'),
        userAddress: value('wire', 'userAddress'),
        userPhoneNumber: value('wire', 'userPhoneNumber'),
      },
    },
  };
}

/** The 422 answer of a field at fault: its name, the screen's message key, and the message in the user's language. */
export interface InvalidField {
  status: 'invalidField';
  field: string;
  messageKey: string;
  message: string;
}

const MESSAGES: Record<string, Record<Locale, string>> = {
  'settings.formBitcoinAddressError': {
    en: 'Enter a valid Bitcoin address.',
    fr: 'Adresse Bitcoin incorrecte.',
  },
  'settings.formPayPalEmailError': {
    en: 'Enter a valid PayPal e-mail address.',
    fr: 'Adresse e-mail PayPal incorrecte.',
  },
  'settings.formWireBankNameError': { en: 'Enter the name of the bank.', fr: 'Nom de la banque incorrect.' },
  'settings.formWireBicError': { en: 'Enter a valid BIC (8 or 11 characters).', fr: 'BIC incorrect.' },
  'settings.formWireIbanError': { en: 'Enter a valid IBAN.', fr: 'IBAN incorrect.' },
  'settings.formWireHolderNameError': {
    en: "Enter the account holder's name.",
    fr: 'Nom du titulaire incorrect.',
  },
  'settings.formWireHolderAddressError': { en: "Enter the account holder's address.", fr: 'Adresse incorrecte.' },
};

function invalid(field: string, messageKey: string, locale: Locale): InvalidField {
  return { status: 'invalidField', field, messageKey, message: MESSAGES[messageKey]?.[locale] ?? messageKey };
}

/** The first field at fault in one method's details, or null. */
export function payoutDetailsProblem(request: TSavePublisherSettingsRequest, locale: Locale): InvalidField | null {
  switch (request.field) {
    case 'bitcoin':
      return isBitcoinAddress(request.data.address)
        ? null
        : invalid('address', 'settings.formBitcoinAddressError', locale);
    case 'paypal':
      return isPaypalEmail(request.data.email) ? null : invalid('email', 'settings.formPayPalEmailError', locale);
    case 'wire': {
      const field = firstWireProblem(request.data);
      return field && field !== 'userPhoneNumber' ? invalid(field, WIRE_ERROR_KEYS[field], locale) : null;
    }
  }
}

/** The details as stored: trimmed, the IBAN and BIC in their electronic form (capitals, no spaces). */
export function storedDetails(request: TSavePublisherSettingsRequest): PayoutDetails {
  switch (request.field) {
    case 'bitcoin':
      return { address: request.data.address.trim() };
    case 'paypal':
      return { email: request.data.email.trim() };
    case 'wire': {
      const wire = request.data;
      return {
        bankName: wire.bankName.trim(),
        bic: normalBic(wire.bic),
        iban: normalIban(wire.iban),
        userName: wire.userName.trim(),
        userAddress: wire.userAddress.trim(),
        userPhoneNumber: wire.userPhoneNumber.trim(),
      };
    }
  }
}

/**
 * POST /api/publisher/save-settings: a method the publisher is not authorised to use is a 409; details at fault
 * answer the first field (the caller sends it as a 422); otherwise the method's row is written (audited, as it
 * says where money goes). A pending payout keeps the details it was asked with.
 */
export async function savePayoutDetails(
  db: Database,
  who: { publisherId: number; userId: number; locale: Locale; ip: string | null },
  request: TSavePublisherSettingsRequest,
  now: Date,
): Promise<InvalidField | null> {
  const publisher = await findPublisher(db, who.publisherId);
  if (!publisher.authorizedPayoutMethods.includes(request.field)) {
    throw new HttpError(409, 'methodNotAuthorized', 'This payout method is not enabled for your account.');
  }
  const problem = payoutDetailsProblem(request, who.locale);
  if (problem) return problem;
  const details = storedDetails(request);
  await db.transaction(async (tx) => {
    await tx
      .insert(payoutMethods)
      .values({ publisherId: who.publisherId, method: request.field, details, updatedBy: who.userId, updatedAt: now })
      .onConflictDoUpdate({
        target: [payoutMethods.publisherId, payoutMethods.method],
        set: { details, updatedBy: who.userId, updatedAt: now },
      });
    await tx.insert(auditLog).values({
      actorUserId: who.userId,
      action: 'payoutMethod.save',
      targetType: 'publisher',
      targetId: who.publisherId,
      details: { method: request.field },
      ip: who.ip,
      createdAt: now,
    });
  });
  return null;
}
