import type { TSale } from '@helium/contracts';

/** The billing address as it is saved, or null when it is empty (message advertiserSetting.errorAddress). */
export function billingAddressToSave(address: string): string | null {
  const trimmed = address.trim();
  return trimmed === '' ? null : trimmed;
}

/** The colour of a sale's state badge. */
export function saleStateColour(state: TSale['state']): string {
  switch (state) {
    case 'paid':
      return 'teal';
    case 'pending':
      return 'yellow';
    case 'unpaid':
      return 'orange';
    default:
      return 'gray';
  }
}

/** Where a sale's receipt (a PDF) is downloaded, on the application's host (specification 02, section 2). */
export function receiptPath(hashId: string): string {
  return `/advertiser/receipt/${encodeURIComponent(hashId)}`;
}
