/**
 * The one API client of the web app. Every call goes through `apiPost`, which takes the call's contract
 * (`@helium/contracts`: its path, and the types of what it takes and answers) and speaks the server's
 * anti-forgery protocol: the `XSRF-TOKEN` cookie from `GET /sanctum/csrf-cookie` is echoed in
 * `X-XSRF-TOKEN`, and a 419 (token missing or stale) fetches a fresh cookie and retries once.
 */
import {
  sessionUserCall,
  signInCall,
  signOutCall,
  updateUserCall,
  type Call,
  type CallInput,
  type CallQuery,
  type CallResponse,
  type TSignInRequest,
  type TUpdateUserRequest,
  type TUploadFileResponse,
  type uploadFileCall,
} from '@helium/contracts';

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

/**
 * The server's explanation of a refusal, to show to the user: the body's `message`, or the first field at fault
 * of a 422; null when there is none (a network failure, a 5xx without one, anything that is not an ApiError).
 */
export function apiErrorMessage(error: unknown): string | null {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return null;
  const body = error.body as { message?: unknown; issues?: unknown };
  if (Array.isArray(body.issues)) {
    const issue = body.issues[0] as { message?: unknown } | undefined;
    if (typeof issue?.message === 'string' && issue.message !== '') return issue.message;
  }
  return typeof body.message === 'string' && body.message !== '' ? body.message : null;
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

/** A query parameter's value; `undefined` and `null` leave the parameter out. */
export type QueryValue = string | number | boolean | null | undefined;

/**
 * What a call's query parameters are: the contract's `query` schema input when its type is known, else any
 * plain parameters (`defineCall` does not keep the query schema's type yet).
 */
export type ApiQuery<C extends Call> = CallQuery<C> extends void ? Record<string, QueryValue> : CallQuery<C>;

export interface ApiPostOptions<C extends Call> {
  /** Appended to the path as URL search parameters, for a call whose contract takes a `query`. */
  query?: ApiQuery<C>;
}

/** The call's body (none for a call without one: `undefined` when options follow) and the options. */
export type ApiPostArgs<C extends Call> =
  CallInput<C> extends void
    ? [body?: undefined, options?: ApiPostOptions<C>]
    : [body: CallInput<C>, options?: ApiPostOptions<C>];

/** `path?name=value&...` for the parameters that have a value, or the path alone. */
export function pathWithQuery(path: string, query: Record<string, unknown> | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const search = params.toString();
  return search === '' ? path : `${path}?${search}`;
}

/**
 * Sends a call and returns its typed answer; throws an ApiError on any non-2xx status. A call with query
 * parameters takes them after the body: `apiPost(createCheckoutSessionCall, undefined, { query: { ... } })`.
 */
export async function apiPost<C extends Call>(call: C, ...[body, options]: ApiPostArgs<C>): Promise<CallResponse<C>> {
  const path = pathWithQuery(call.path, options?.query as Record<string, unknown> | undefined);
  // Without a token the first call would certainly be refused, so get one up front.
  if (!xsrfToken()) await fetchCsrfCookie().catch(() => undefined);
  let response = await postOnce(path, body);
  if (response.status === 419) {
    await fetchCsrfCookie();
    response = await postOnce(path, body);
  }
  const payload = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, payload);
  return payload as CallResponse<C>;
}

/**
 * Sends a file as multipart form data (field `file`) with the same anti-forgery protocol as `apiPost`.
 * The upload's refusals (4xx) carry the same body shape, so they are returned, not thrown; only a
 * failure without such a body throws an ApiError.
 */
export async function apiUpload(call: typeof uploadFileCall, file: File): Promise<TUploadFileResponse> {
  const path = call.path;
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
  /** The signed-in user; an ApiError 401 when nobody is (answered 200 with null, so no failed request is logged). */
  user: async () => {
    const { user } = await apiPost(sessionUserCall);
    if (!user) throw new ApiError(401, null, 'Not signed in');
    return user;
  },
  signIn: (request: TSignInRequest) => apiPost(signInCall, request),
  signOut: () => apiPost(signOutCall),
  updateUser: (request: TUpdateUserRequest) => apiPost(updateUserCall, request),
};
