import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advertisers, campaigns } from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';

/* An advertiser an admin gave a second campaign: Activity shows the newest (where uploads go), and any other asked for. */

let t: TestApp;
let owner: TestClient;
let admin: TestClient;
let advertiserId: number;
let firstId: number;

const campaignEx = (client: TestClient, body: object = {}) => client.post('/api/advertiser/get-campaignex', body);

beforeAll(async () => {
  t = await buildTestApp();
  const [nordvik] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
  advertiserId = nordvik!.id;
  const [first] = await t.db
    .select()
    .from(campaigns)
    .where(eq(campaigns.advertiserId, advertiserId))
    .orderBy(asc(campaigns.id));
  firstId = first!.id;
  owner = t.client();
  await owner.signIn('advertiser@demo.test');
  admin = t.client();
  await admin.signIn('admin@demo.test');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('get-campaignex with several campaigns', () => {
  it('lists one campaign alone before an admin adds another', async () => {
    const answer = await campaignEx(owner);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().id).toBe(firstId);
    expect(answer.json().campaigns).toEqual([{ id: firstId, is_cpc: false }]);
  });

  it('shows the newest by default, lists both newest first, and the older one when asked', async () => {
    const created = await admin.post('/api/admin/create-campaign', { advertiserId, isCpc: true, price: 0.4 });
    expect(created.statusCode).toBe(200);
    const newestId: number = created.json().campaignId;
    const newest = await campaignEx(owner);
    expect(newest.json().id).toBe(newestId);
    expect(newest.json().is_cpc).toBe(true);
    expect(newest.json().campaigns).toEqual([
      { id: newestId, is_cpc: true },
      { id: firstId, is_cpc: false },
    ]);
    const older = await campaignEx(owner, { campaignId: firstId });
    expect(older.json()).toMatchObject({ id: firstId, is_cpc: false });
    expect(older.json().campaigns).toEqual(newest.json().campaigns);
  });

  it("refuses another advertiser's campaign (403) and an unknown one (404), lists none of theirs", async () => {
    const [other] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Vélo Urbain'));
    const [theirs] = await t.db.select().from(campaigns).where(eq(campaigns.advertiserId, other!.id));
    const refused = await campaignEx(owner, { campaignId: theirs!.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().status).toBe('notYourCampaign');
    expect((await campaignEx(owner, { campaignId: 999_999 })).statusCode).toBe(404);
    expect((await campaignEx(owner, { campaignId: 'one' })).statusCode).toBe(422);
    const listed = (await campaignEx(owner)).json().campaigns as { id: number }[];
    expect(listed.map((campaign) => campaign.id)).not.toContain(theirs!.id);
  });
});
