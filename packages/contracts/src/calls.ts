import {
  commonSignOutCall,
  sessionUserCall,
  signOutCall,
  stopActingAsCall,
  updateUserCall,
  userCall,
} from './account.ts';
import {
  getAdValidationCall,
  getAdValidationsCall,
  requestPublishersToValidateAdCall,
  updateAdValidationCall,
  validateAdByAdminsCall,
} from './ad-validation.ts';
import { getActivityCall } from './admin-activity.ts';
import { ADMIN_USERS_CALLS } from './admin-users.ts';
import { API_TOKENS_CALLS } from './api-tokens.ts';
import { getAdsCall, requestToValidateAdCall, updateOrDeleteAdCall, uploadFileCall } from './ads.ts';
import {
  getCampaignExCall,
  updateCampaignAdActivationCall,
  updateCampaignAdBudgetCall,
  updateCampaignAdEjectionCall,
  updateCampaignAutoPilotCall,
  updateCampaignPauseCall,
  updateStatsExCall,
} from './campaign-activity.ts';
import {
  applyCouponCall,
  buyWithBillToPayCall,
  buyWithBitcoinCall,
  createCheckoutSessionCall,
  createCouponCall,
  getAdvertiserSettingsCall,
  getCouponsCall,
  getOutstandingInvoicesCall,
  getPurchaseCall,
  getSalesCall,
  getTestCheckoutCall,
  payTestCheckoutCall,
  saveAdvertiserSettingsCall,
  stripeWebhookCall,
  updateBuyCall,
  updateSaleCall,
} from './billing.ts';
import {
  getAccountingCall,
  getPayoutsCall,
  getPublisherSettingsCall,
  getPublisherStatsCall,
  requestPayoutCall,
  savePublisherSettingsCall,
  updatePayoutCall,
} from './payouts.ts';
import { checkInstallCall, getInstallationDataCall } from './installation.ts';
import { getPerformanceHistoryCall, getRealtimePerformanceCall } from './performance.ts';
import { ADMIN_NETWORK_CALLS } from './admin-network.ts';
import { ADMIN_STATS_CALLS } from './admin-stats.ts';
import { AUDIT_LOG_CALLS } from './audit-log.ts';
import { INVALID_TRAFFIC_CALLS } from './invalid-traffic.ts';
import { LOCATIONS_CALLS } from './locations.ts';
import { MONEY_AUDIT_CALLS } from './money-audit.ts';
import { MAIL_REPORTS_CALLS } from './mail-reports.ts';
import { PLACEMENTS_CALLS } from './placements.ts';
import { CAMPAIGN_COUNTRIES_CALLS } from './campaign-countries.ts';
import { signInCall } from './signin.ts';
import { userActivityCall } from './user-activity.ts';

/**
 * Every JSON call of the API. A test checks that the API has a route for each, and only these: a new call is
 * added here once, in its feature's contract file, and nowhere else is its path written.
 */
export const API_CALLS = [
  signInCall,
  userCall,
  sessionUserCall,
  updateUserCall,
  signOutCall,
  commonSignOutCall,
  stopActingAsCall,
  userActivityCall,
  ...ADMIN_USERS_CALLS,
  getAdsCall,
  updateOrDeleteAdCall,
  requestToValidateAdCall,
  uploadFileCall,
  getAdValidationsCall,
  validateAdByAdminsCall,
  requestPublishersToValidateAdCall,
  getAdValidationCall,
  updateAdValidationCall,
  getCampaignExCall,
  updateCampaignPauseCall,
  updateCampaignAdBudgetCall,
  updateCampaignAdEjectionCall,
  updateCampaignAdActivationCall,
  updateCampaignAutoPilotCall,
  updateStatsExCall,
  getActivityCall,
  getInstallationDataCall,
  checkInstallCall,
  getRealtimePerformanceCall,
  getPerformanceHistoryCall,
  getPurchaseCall,
  updateBuyCall,
  buyWithBitcoinCall,
  buyWithBillToPayCall,
  applyCouponCall,
  createCheckoutSessionCall,
  stripeWebhookCall,
  getTestCheckoutCall,
  payTestCheckoutCall,
  getAdvertiserSettingsCall,
  saveAdvertiserSettingsCall,
  getSalesCall,
  updateSaleCall,
  getOutstandingInvoicesCall,
  getCouponsCall,
  createCouponCall,
  getAccountingCall,
  requestPayoutCall,
  getPublisherStatsCall,
  getPublisherSettingsCall,
  savePublisherSettingsCall,
  getPayoutsCall,
  updatePayoutCall,
  ...ADMIN_STATS_CALLS,
  ...ADMIN_NETWORK_CALLS,
  ...AUDIT_LOG_CALLS,
  ...INVALID_TRAFFIC_CALLS,
  ...PLACEMENTS_CALLS,
  ...CAMPAIGN_COUNTRIES_CALLS,
  ...LOCATIONS_CALLS,
  ...MONEY_AUDIT_CALLS,
  ...API_TOKENS_CALLS,
  ...MAIL_REPORTS_CALLS,
] as const;
