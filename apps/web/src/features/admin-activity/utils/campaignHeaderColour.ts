import type { TAdminActivityCampaign } from '@helium/contracts';

/**
 * The colour of a campaign's header on Activity by Advertiser (specification 02: green when cpm is above 0,
 * otherwise red): the campaign's own CPM price, so a click-priced campaign (CPM 0) is red even though its
 * statistics give it an equivalent CPM.
 */
export function campaignHeaderColour(ex: Pick<TAdminActivityCampaign['ex'], 'cpm'>): 'green' | 'red' {
  return ex.cpm > 0 ? 'green' : 'red';
}
