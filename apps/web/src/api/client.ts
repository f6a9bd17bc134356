/**
 * The one API client of the web app. Every call goes through `apiPost`, which speaks the server's
 * anti-forgery protocol: the `XSRF-TOKEN` cookie from `GET /sanctum/csrf-cookie` is echoed in
 * `X-XSRF-TOKEN`, and a 419 (token missing or stale) fetches a fresh cookie and retries once.
 * Request and response types come from the shared contracts; add each new call to `ApiEndpoints`.
 */
import type { TCheckInstallResponse, TGetInstallationDataResponse } from '@helium/contracts';
import type { TGetPerformanceHistoryResponse, TGetRealtimePerformanceResponse } from '@helium/contracts';
import type {
  TAdminActivityRequest,
  TAdminActivityResponse,
  TCampaignEx,
  TGetCampaignExRequest,
  TSignInRequest,
  TSignInResponse,
  TStatusResponse,
  TUpdateCampaignAdActivationRequest,
  TUpdateCampaignAdBudgetRequest,
  TUpdateCampaignAdEjectionRequest,
  TUpdateCampaignAutoPilotRequest,
  TUpdateCampaignPauseRequest,
  TUpdateStatsExRequest,
  TUpdateUserRequest,
  TUser,
  TUserActivityRequest,
} from '@helium/contracts';
import type {
  TGetAdValidationRequest,
  TGetAdValidationResponse,
  TGetAdValidationsRequest,
  TGetAdValidationsResponse,
  TGetAdsResponse,
  TRequestPublishersRequest,
  TRequestToValidateAdRequest,
  TUpdateAdValidationRequest,
  TUpdateOrDeleteAdRequest,
  TUploadFileResponse,
  TValidateAdByAdminsRequest,
} from '@helium/contracts';

/** POST calls by path: what they take and what they answer. */
export interface ApiEndpoints {
  '/api/common/user': { request: void; response: TUser };
  '/api/common/signin': { request: TSignInRequest; response: TSignInResponse };
  '/api/signout': { request: void; response: TStatusResponse };
  '/api/common/signout': { request: void; response: TStatusResponse };
  '/api/common/update-user': { request: TUpdateUserRequest; response: TStatusResponse };
  '/api/advertiser/get-ads': { request: void; response: TGetAdsResponse };
  '/api/advertiser/update-or-delete-ad': { request: TUpdateOrDeleteAdRequest; response: TStatusResponse };
  '/api/advertiser/request-to-validate-ad': { request: TRequestToValidateAdRequest; response: TStatusResponse };
  '/api/admin/get-ad-validations': { request: TGetAdValidationsRequest; response: TGetAdValidationsResponse };
  '/api/admin/validate-ad-by-admins': { request: TValidateAdByAdminsRequest; response: TStatusResponse };
  '/api/admin/request-publishers-to-validate-ad-or-force-validation': {
    request: TRequestPublishersRequest;
    response: TStatusResponse;
  };
  '/api/publisher/get-ad-validation': { request: TGetAdValidationRequest; response: TGetAdValidationResponse };
  '/api/publisher/update-ad-validation': { request: TUpdateAdValidationRequest; response: TStatusResponse };
  '/api/common/user-activity': { request: TUserActivityRequest; response: TStatusResponse };
  '/api/advertiser/get-campaignex': { request: TGetCampaignExRequest; response: TCampaignEx };
  '/api/advertiser/update-campaign-pause': { request: TUpdateCampaignPauseRequest; response: TStatusResponse };
  '/api/advertiser/update-campaign-ad-budget': { request: TUpdateCampaignAdBudgetRequest; response: TStatusResponse };
  '/api/advertiser/update-campaign-ad-ejection': {
    request: TUpdateCampaignAdEjectionRequest;
    response: TStatusResponse;
  };
  '/api/advertiser/update-campaign-ad-activation': {
    request: TUpdateCampaignAdActivationRequest;
    response: TStatusResponse;
  };
  '/api/advertiser/update-campaign-autopilot': { request: TUpdateCampaignAutoPilotRequest; response: TStatusResponse };
  '/api/advertiser/update-stats-ex': { request: TUpdateStatsExRequest; response: TStatusResponse };
  '/api/admin/get-activity': { request: TAdminActivityRequest; response: TAdminActivityResponse };
  '/api/publisher/get-installation-data': { request: void; response: TGetInstallationDataResponse };
  '/api/publisher/check-install': { request: void; response: TCheckInstallResponse };
  '/api/publisher/get-realtime-performance': { request: void; response: TGetRealtimePerformanceResponse };
  '/api/publisher/get-performance-history': { request: void; response: TGetPerformanceHistoryResponse };
}
export type ApiPath = keyof ApiEndpoints;
export type ApiRequest<P extends ApiPath> = ApiEndpoints[P]['request'];
export type ApiResponse<P extends ApiPath> = ApiEndpoints[P]['response'];

/** A refused or failed call. `status` is the HTTP status, or 0 when the server could not be reached. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown, message?: string) {
    super(message ?? `API call failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

export const CSRF_COOKIE_PATH = '/sanctum/csrf-cookie';
const XSRF_COOKIE = 'XSRF-TOKEN';

/** The value of a cookie in a `document.cookie` string, URL-decoded, or null. */
export function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const raw = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

function xsrfToken(): string | null {
  return typeof document === 'undefined' ? null : readCookie(document.cookie, XSRF_COOKIE);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function send(input: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(input, { credentials: 'same-origin', ...init });
  } catch (error) {
    throw new ApiError(0, null, error instanceof Error ? error.message : 'Network error');
  }
}

let csrfRequest: Promise<void> | null = null;

/** Asks the server for a fresh anti-forgery cookie; concurrent callers share one request. */
export function fetchCsrfCookie(): Promise<void> {
  csrfRequest ??= (async () => {
    try {
      const response = await send(CSRF_COOKIE_PATH, {
        method: 'GET',
        headers: { 'X-Requested-With': 'XMLHttpRequest' },
      });
      if (!response.ok) throw new ApiError(response.status, await readBody(response));
    } finally {
      csrfRequest = null;
    }
  })();
  return csrfRequest;
}

function postOnce(path: string, body: unknown): Promise<Response> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  };
  const token = xsrfToken();
  if (token) headers['X-XSRF-TOKEN'] = token;
  return send(path, { method: 'POST', headers, body: JSON.stringify(body ?? {}) });
}

/** Sends a POST call and returns its typed answer; throws an ApiError on any non-2xx status. */
export async function apiPost<P extends ApiPath>(
  path: P,
  ...[body]: ApiRequest<P> extends void ? [] : [ApiRequest<P>]
): Promise<ApiResponse<P>> {
  // Without a token the first call would certainly be refused, so get one up front.
  if (!xsrfToken()) await fetchCsrfCookie().catch(() => undefined);
  let response = await postOnce(path, body);
  if (response.status === 419) {
    await fetchCsrfCookie();
    response = await postOnce(path, body);
  }
  const payload = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, payload);
  return payload as ApiResponse<P>;
}

/**
 * Sends a file as multipart form data (field `file`) with the same anti-forgery protocol as `apiPost`.
 * The upload's refusals (4xx) carry the same body shape, so they are returned, not thrown; only a
 * failure without such a body throws an ApiError.
 */
export async function apiUpload(path: '/api/advertiser/upload-file', file: File): Promise<TUploadFileResponse> {
  if (!xsrfToken()) await fetchCsrfCookie().catch(() => undefined);
  const sendOnce = () => {
    const body = new FormData();
    body.append('file', file, file.name);
    const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
    const token = xsrfToken();
    if (token) headers['X-XSRF-TOKEN'] = token;
    return send(path, { method: 'POST', headers, body });
  };
  let response = await sendOnce();
  if (response.status === 419) {
    await fetchCsrfCookie();
    response = await sendOnce();
  }
  const payload = await readBody(response);
  const isUploadAnswer =
    typeof payload === 'object' && payload !== null && Array.isArray((payload as { errors?: unknown }).errors);
  if (!response.ok && !isUploadAnswer) throw new ApiError(response.status, payload);
  return payload as TUploadFileResponse;
}

/** The calls of the foundation, named. */
export const api = {
  csrfCookie: fetchCsrfCookie,
  user: () => apiPost('/api/common/user'),
  signIn: (request: TSignInRequest) => apiPost('/api/common/signin', request),
  signOut: () => apiPost('/api/signout'),
  updateUser: (request: TUpdateUserRequest) => apiPost('/api/common/update-user', request),
};
