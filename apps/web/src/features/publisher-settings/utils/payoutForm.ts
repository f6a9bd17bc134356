import type { TPublisherSettings, TSavePublisherSettingsRequest } from '@helium/contracts';
import {
  firstWireProblem,
  isBitcoinAddress,
  isPaypalEmail,
  normalBic,
  normalIban,
  WIRE_ERROR_KEYS,
  WIRE_FIELDS,
  type WireField,
} from '@helium/domain/payout-details';
import type { PayoutMethod } from '@helium/domain/payouts';
import { ApiError } from '../../../api/client.ts';

/** The methods' cards in the screen's order (section 2.8). */
export const SETTINGS_METHODS = ['bitcoin', 'paypal', 'wire'] as const satisfies readonly PayoutMethod[];

export type PayoutForms = TPublisherSettings['form'];
/** A method's details as typed: every field a string. */
export type MethodValues<M extends PayoutMethod> = PayoutForms[M];
export type FieldName = 'address' | 'email' | WireField;

/** The fields of each method, in the screen's order: the first failing one gets the focus. */
export const METHOD_FIELDS = {
  bitcoin: ['address'],
  paypal: ['email'],
  wire: WIRE_FIELDS,
} as const satisfies Record<PayoutMethod, readonly FieldName[]>;

/** The messages of section 5: a key of the catalogues. */
export type SettingsErrorKey =
  | 'settings.formBitcoinAddressError'
  | 'settings.formPayPalEmailError'
  | 'settings.formWireBankNameError'
  | 'settings.formWireBicError'
  | 'settings.formWireIbanError'
  | 'settings.formWireHolderNameError'
  | 'settings.formWireHolderAddressError';

/** The message of a field, or null for a field without one (the phone number is not checked). */
export function errorKeyOf(field: FieldName): SettingsErrorKey | null {
  if (field === 'address') return 'settings.formBitcoinAddressError';
  if (field === 'email') return 'settings.formPayPalEmailError';
  if (field === 'userPhoneNumber') return null;
  return WIRE_ERROR_KEYS[field] as SettingsErrorKey;
}

export interface FieldProblem {
  field: FieldName;
  /** The message's key; null when only the server's message can tell. */
  messageKey: SettingsErrorKey | null;
  /** The server's message, when it gave one. */
  message?: string;
}

/** What is saved: trimmed, the IBAN and the BIC in capitals without spaces. */
export function requestToSave(request: TSavePublisherSettingsRequest): TSavePublisherSettingsRequest {
  switch (request.field) {
    case 'bitcoin':
      return { field: 'bitcoin', data: { address: request.data.address.trim() } };
    case 'paypal':
      return { field: 'paypal', data: { email: request.data.email.trim() } };
    case 'wire': {
      const wire = request.data;
      return {
        field: 'wire',
        data: {
          bankName: wire.bankName.trim(),
          bic: normalBic(wire.bic),
          iban: normalIban(wire.iban),
          userName: wire.userName.trim(),
          userAddress: wire.userAddress.trim(),
          userPhoneNumber: wire.userPhoneNumber.trim(),
        },
      };
    }
  }
}

/** The first field the domain's rules refuse (section 5), or null: then the details can be sent. */
export function firstProblem(request: TSavePublisherSettingsRequest): FieldProblem | null {
  const problemOf = (field: FieldName): FieldProblem => ({ field, messageKey: errorKeyOf(field) });
  switch (request.field) {
    case 'bitcoin':
      return isBitcoinAddress(request.data.address) ? null : problemOf('address');
    case 'paypal':
      return isPaypalEmail(request.data.email) ? null : problemOf('email');
    case 'wire': {
      const field = firstWireProblem(request.data);
      return field ? problemOf(field) : null;
    }
  }
}

function fieldNamed(method: PayoutMethod, name: unknown): FieldName | null {
  if (typeof name !== 'string') return null;
  const fields: readonly FieldName[] = METHOD_FIELDS[method];
  const last = name.split('.').pop() ?? '';
  if ((fields as readonly string[]).includes(last)) return last as FieldName;
  // A refusal naming the method (or the details as a whole) is about its first field.
  if (last === method || last === 'data') return fields[0] ?? null;
  return null;
}

/**
 * The field a refusal of the server is about: a 422 `{ status: 'invalidField', field }` (or a contract's issues naming
 * `data.<field>`), with its message; null for any other failure.
 */
export function serverProblem(method: PayoutMethod, error: unknown): FieldProblem | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  if (typeof error.body !== 'object' || error.body === null) return null;
  const body = error.body as { field?: unknown; message?: unknown; issues?: unknown };
  const issues = Array.isArray(body.issues) ? (body.issues as { path?: unknown; message?: unknown }[]) : [];
  const named = fieldNamed(method, body.field) ?? fieldNamed(method, issues[0]?.path);
  if (!named) return null;
  const message =
    typeof body.message === 'string' && body.message !== ''
      ? body.message
      : typeof issues[0]?.message === 'string'
        ? issues[0].message
        : undefined;
  return { field: named, messageKey: errorKeyOf(named), ...(message ? { message } : {}) };
}

/** Whether a method has any detail filled in. */
export function isConfigured(values: Record<string, string>): boolean {
  return Object.values(values).some((value) => value.trim() !== '');
}
