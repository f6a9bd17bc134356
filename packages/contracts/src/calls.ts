import { commonSignOutCall, signOutCall, updateUserCall, userCall } from './account.ts';
import {
  getAdValidationCall,
  getAdValidationsCall,
  requestPublishersToValidateAdCall,
  updateAdValidationCall,
  validateAdByAdminsCall,
} from './ad-validation.ts';
import { getActivityCall } from './admin-activity.ts';
import { getUsersCall } from './admin-users.ts';
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
import { signInCall } from './signin.ts';
import { userActivityCall } from './user-activity.ts';

/**
 * Every JSON call of the API. A test checks that the API has a route for each, and only these: a new call is
 * added here once, in its feature's contract file, and nowhere else is its path written.
 */
export const API_CALLS = [
  signInCall,
  userCall,
  updateUserCall,
  signOutCall,
  commonSignOutCall,
  userActivityCall,
  getUsersCall,
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
  getCouponsCall,
  createCouponCall,
  getAccountingCall,
  requestPayoutCall,
  getPublisherStatsCall,
  getPublisherSettingsCall,
  savePublisherSettingsCall,
  getPayoutsCall,
  updatePayoutCall,
] as const;
