import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, payoutMethods, payouts, publishers } from '@helium/db';
import { buildTestApp, signedInPublisher, type TestApp, type TestClient } from '../../../test/helper.ts';
import { databaseFingerprint } from '../../../test/call-samples.ts';
import { publisherId } from '../../../test/serve-support.ts';

/*
 * The publisher's payout Settings: get-settings answers every method's form, save-settings takes one method's
 * details, refuses a method the publisher is not authorised to use (409) and details at fault (422, the first
 * field), and saves nothing then.
 */

let t: TestApp;
let blog: number;
let cuisine: number;
let publisher: TestClient;
let multi: TestClient;

const WIRE = {
  bankName: 'Crédit Agricole',
  bic: 'agri fr pp',
  iban: 'fr76 3000 6000 0112 3456 7890 189',
  userName: 'Julien Martin',
  userAddress: '12 rue de la Paix, 75002 Paris',
  userPhoneNumber: '+33 6 12 34 56 78',
};
const NOT_COMPARED = ['sessions', 'login_codes'];

beforeAll(async () => {
  t = await buildTestApp();
  blog = await publisherId(t.db, 'Demo Blog');
  cuisine = await publisherId(t.db, 'Cuisine Facile');
  publisher = await signedInPublisher(t, blog);
  multi = await signedInPublisher(t, cuisine, 'multi@demo.test');
});
afterAll(async () => {
  await t?.close();
});

async function authorize(id: number, methods: string[]) {
  await t.db.update(publishers).set({ authorizedPayoutMethods: methods }).where(eq(publishers.id, id));
}

async function storedOf(id: number) {
  const rows = await t.db.select().from(payoutMethods).where(eq(payoutMethods.publisherId, id));
  return Object.fromEntries(rows.map((row) => [row.method, row.details]));
}

const save = (client: TestClient, field: string, data: object) =>
  client.post('/api/publisher/save-settings', { field, data });

describe('get-settings', () => {
  it('answers the authorised methods and empty strings for what is not set', async () => {
    await authorize(cuisine, ['wire', 'bitcoin']);
    await t.db.delete(payoutMethods).where(eq(payoutMethods.publisherId, cuisine));
    const response = await multi.post('/api/publisher/get-settings');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      authorizedPayoutMethods: ['bitcoin', 'wire'],
      form: {
        bitcoin: { address: '' },
        paypal: { email: '' },
        wire: { bankName: '', bic: '', iban: '', userName: '', userAddress: '', userPhoneNumber: '' },
      },
    });
  });
});

describe('save-settings', () => {
  beforeAll(async () => {
    await authorize(blog, ['paypal', 'wire', 'bitcoin']);
    await t.db.delete(payoutMethods).where(eq(payoutMethods.publisherId, blog));
  });

  it('stores the wire details with the IBAN and BIC in their electronic form, and answers them', async () => {
    const response = await save(publisher, 'wire', WIRE);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect((await storedOf(blog)).wire).toEqual({
      ...WIRE,
      bic: 'AGRIFRPP',
      iban: 'FR7630006000011234567890189',
    });
    const settings = (await publisher.post('/api/publisher/get-settings')).json();
    expect(settings.form.wire).toMatchObject({ bic: 'AGRIFRPP', iban: 'FR7630006000011234567890189' });
    expect(settings.authorizedPayoutMethods).toEqual(['bitcoin', 'paypal', 'wire']);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payoutMethod.save'), eq(auditLog.targetId, blog)));
    expect(audits.at(-1)!.details).toEqual({ method: 'wire' });
  });

  it('a second save replaces the method’s details (one row per method)', async () => {
    expect((await save(publisher, 'paypal', { email: ' julien@example.com ' })).statusCode).toBe(200);
    expect((await save(publisher, 'paypal', { email: 'julien.martin@demo.test' })).statusCode).toBe(200);
    const rows = await t.db
      .select()
      .from(payoutMethods)
      .where(and(eq(payoutMethods.publisherId, blog), eq(payoutMethods.method, 'paypal')));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.details).toEqual({ email: 'julien.martin@demo.test' });
    const settings = (await publisher.post('/api/publisher/get-settings')).json();
    expect(settings.form.paypal).toEqual({ email: 'julien.martin@demo.test' });
  });

  it.each([
    ['a segwit address', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ['a taproot address', 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'],
    ['a legacy address', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
  ])('takes %s', async (_name, address) => {
    expect((await save(publisher, 'bitcoin', { address })).statusCode).toBe(200);
    expect((await storedOf(blog)).bitcoin).toEqual({ address });
  });

  it.each([
    [
      'bitcoin',
      { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdp' },
      'address',
      'settings.formBitcoinAddressError',
    ],
    ['bitcoin', { address: '0xAbC123' }, 'address', 'settings.formBitcoinAddressError'],
    ['paypal', { email: 'not an e-mail' }, 'email', 'settings.formPayPalEmailError'],
    ['wire', { ...WIRE, bankName: ' ', bic: 'x', iban: 'x' }, 'bankName', 'settings.formWireBankNameError'],
    ['wire', { ...WIRE, bic: 'AGRI', iban: 'x' }, 'bic', 'settings.formWireBicError'],
    ['wire', { ...WIRE, iban: 'FR7630006000011234567890188' }, 'iban', 'settings.formWireIbanError'],
    ['wire', { ...WIRE, userName: '' }, 'userName', 'settings.formWireHolderNameError'],
    ['wire', { ...WIRE, userAddress: '' }, 'userAddress', 'settings.formWireHolderAddressError'],
  ])('refuses %s details %j at the first field at fault (%s), saving nothing', async (field, data, at, key) => {
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const response = await save(publisher, field, data);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ status: 'invalidField', field: at, messageKey: key });
    expect(response.json().message.length).toBeGreaterThan(0);
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
  });

  // Issue 32: the bank's and the holder's names go on transfer orders and the admins' export, one line each.
  it.each([
    ['bankName', 'Crédit\nAgricole'],
    ['bankName', 'Crédit Agricole\t'],
    ['userName', 'Julien\r\nMartin'],
    ['userName', 'Julien\u0000Martin'],
    ['userName', 'Julien\u0085Martin'],
    // Shown as "John Doe" to the admin sending the wire, stored reversed; a bank name of one invisible character.
    ['userName', '\u202eeoD nhoJ'],
    ['bankName', '\u200b'],
    ['userPhoneNumber', '\u0007\u001b[31m'],
    ['iban', 'FR76\u20663000 6000 0112 3456 7890 189'],
    ['userAddress', '12 rue de la Paix\u001b[2J\n75002 Paris'],
  ])('refuses a %s with a control character %j (422 naming it), saving nothing', async (name, text) => {
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const response = await save(publisher, 'wire', { ...WIRE, [name]: text });
    expect(response.statusCode).toBe(422);
    expect(response.json().issues.map((issue: { path: string }) => issue.path)).toEqual([`data.${name}`]);
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
  });

  it('keeps the holder’s address on several lines', async () => {
    const response = await save(publisher, 'wire', { ...WIRE, userAddress: '12 rue de la Paix\n75002 Paris' });
    expect(response.statusCode).toBe(200);
    expect((await storedOf(blog)).wire).toMatchObject({ userAddress: '12 rue de la Paix\n75002 Paris' });
  });

  it('says what is wrong in the user’s language', async () => {
    await authorize(cuisine, ['wire']);
    const response = await save(multi, 'wire', { ...WIRE, userAddress: '' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      status: 'invalidField',
      field: 'userAddress',
      messageKey: 'settings.formWireHolderAddressError',
      message: 'Adresse incorrecte.',
    });
  });

  it('refuses a method the publisher is not authorised to use (409), saving nothing', async () => {
    await authorize(cuisine, ['wire']);
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const response = await save(multi, 'paypal', { email: 'marc@example.com' });
    expect(response.statusCode).toBe(409);
    expect(response.json().status).toBe('methodNotAuthorized');
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
  });

  it("changes only the publisher in use's details, and a pending payout keeps the details it was asked with", async () => {
    const blogBefore = await storedOf(blog);
    expect((await save(multi, 'wire', { ...WIRE, userName: 'Marc Lefèvre' })).statusCode).toBe(200);
    expect(await storedOf(blog)).toEqual(blogBefore);
    expect((await storedOf(cuisine)).wire).toMatchObject({ userName: 'Marc Lefèvre' });
    const [pending] = await t.db
      .insert(payouts)
      .values({
        publisherId: cuisine,
        method: 'wire',
        currency: 'eur',
        state: 'pending',
        amount: 60_000_000,
        amountInCurrency: 55_000_000,
        details: (await storedOf(cuisine)).wire!,
      })
      .returning();
    expect((await save(multi, 'wire', { ...WIRE, userName: 'Someone Else' })).statusCode).toBe(200);
    const [after] = await t.db.select().from(payouts).where(eq(payouts.id, pending!.id));
    expect(after!.details).toMatchObject({ userName: 'Marc Lefèvre' });
  });
});
