/*
 * The longest each free text may be, in characters (issue 36, point 8): the contract schemas refuse longer text (a
 * 422 naming the field and the limit), and the web app's fields check the same number as the user types, saying so
 * beside the field; nothing is cut.
 */
export const TEXT_LIMITS = {
  /** A publisher's or advertiser's brand. */
  brand: 120,
  /** A person's name. */
  name: 120,
  email: 254,
  /** A registered domain (DNS's limit). */
  domain: 253,
  couponCode: 40,
  /** An advertiser's billing address, printed on its invoices. */
  billingAddress: 2000,
  bitcoinAddress: 100,
  /** The seller's and the bank's details printed on invoices (network settings). */
  invoiceDetails: 1000,
  /** A placement's CSS selector. */
  cssSelector: 300,
  /** The reference of a payout sent, and the reason of a payout returned. */
  payoutReference: 200,
  payoutReason: 500,
  /** A note on a credit grant. */
  grantNote: 200,
  /** An ad's link. */
  link: 2048,
  /** What a search field takes. */
  search: 100,
  /** A publisher's payout details, field by field (bitcoin address, PayPal e-mail, bank wire). */
  payoutDetails: {
    address: 100,
    email: 254,
    bankName: 200,
    bic: 20,
    iban: 50,
    userName: 200,
    userAddress: 500,
    userPhoneNumber: 40,
  },
} as const;
