import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiErrorMessage, apiPost, isApiError, pathWithQuery, readCookie } from './client.ts';
import { createCheckoutSessionCall, signOutCall, updateUserCall, userCall } from '@helium/contracts';

describe('readCookie', () => {
  it('finds a cookie among others and URL-decodes it', () => {
    expect(readCookie('a=1; XSRF-TOKEN=abc%3D%3D; b=2', 'XSRF-TOKEN')).toBe('abc==');
  });

  it('answers null when the cookie is absent', () => {
    expect(readCookie('a=1; b=2', 'XSRF-TOKEN')).toBeNull();
    expect(readCookie('', 'XSRF-TOKEN')).toBeNull();
  });

  it('keeps a value that is not valid URL encoding as it is', () => {
    expect(readCookie('XSRF-TOKEN=%E0%A4%A', 'XSRF-TOKEN')).toBe('%E0%A4%A');
  });
});

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('apiPost', () => {
  const fakeDocument = { cookie: '' };
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    fakeDocument.cookie = 'XSRF-TOKEN=first%20token';
    vi.stubGlobal('document', fakeDocument);
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('sends JSON with the anti-forgery and XMLHttpRequest headers and same-origin cookies', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { status: 'ok' }));
    await expect(apiPost(updateUserCall, { key: 'locale', value: 'fr' })).resolves.toEqual({
      status: 'ok',
    });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/common/update-user');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBe('{"key":"locale","value":"fr"}');
    expect(init?.headers).toMatchObject({
      'X-XSRF-TOKEN': 'first token',
      'X-Requested-With': 'XMLHttpRequest',
      'Content-Type': 'application/json',
    });
  });

  it('on 419 fetches a fresh cookie and retries once with the new token', async () => {
    fetchMock
      .mockResolvedValueOnce(json(419, { status: 'csrfTokenMismatch' }))
      .mockImplementationOnce(async () => {
        fakeDocument.cookie = 'XSRF-TOKEN=second';
        return new Response(null, { status: 204 });
      })
      .mockResolvedValueOnce(json(200, { status: 'ok' }));
    await expect(apiPost(signOutCall)).resolves.toEqual({ status: 'ok' });
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/signout', '/sanctum/csrf-cookie', '/api/signout']);
    expect(fetchMock.mock.calls[2]![1]?.headers).toMatchObject({ 'X-XSRF-TOKEN': 'second' });
  });

  it('does not retry a second time', async () => {
    fetchMock
      .mockResolvedValueOnce(json(419, {}))
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockResolvedValueOnce(json(419, { status: 'csrfTokenMismatch' }));
    const error = await apiPost(signOutCall).catch((e: unknown) => e);
    expect(isApiError(error, 419)).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('fetches the cookie first when there is none yet', async () => {
    fakeDocument.cookie = '';
    fetchMock
      .mockImplementationOnce(async () => {
        fakeDocument.cookie = 'XSRF-TOKEN=fresh';
        return new Response(null, { status: 204 });
      })
      .mockResolvedValueOnce(json(200, { status: 'ok' }));
    await apiPost(signOutCall);
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/sanctum/csrf-cookie', '/api/signout']);
  });

  it('throws an ApiError carrying the status and the parsed body', async () => {
    fetchMock.mockResolvedValueOnce(json(401, { status: 'unauthenticated', message: 'Not signed in' }));
    const error = await apiPost(userCall).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, body: { status: 'unauthenticated', message: 'Not signed in' } });
  });

  it('reports an unreachable server as status 0', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const error = await apiPost(userCall).catch((e: unknown) => e);
    expect(isApiError(error, 0)).toBe(true);
  });

  it("appends a call's query parameters to its path and sends an empty body", async () => {
    fetchMock.mockResolvedValueOnce(json(200, { id: 'cs_1', url: '/test-checkout/cs_1' }));
    await apiPost(createCheckoutSessionCall, undefined, { query: { campaignExId: 7, currency: 'usd' } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/stripe2/create-checkout-session-campaignex?campaignExId=7&currency=usd');
    expect(init?.body).toBe('{}');
  });
});

describe('pathWithQuery', () => {
  it('encodes the parameters that have a value and leaves the path alone without any', () => {
    expect(pathWithQuery('/api/x', { a: 'b c', n: 1, none: undefined, nil: null })).toBe('/api/x?a=b+c&n=1');
    expect(pathWithQuery('/api/x', {})).toBe('/api/x');
    expect(pathWithQuery('/api/x', undefined)).toBe('/api/x');
  });
});

describe('apiErrorMessage', () => {
  it("gives the server's message, or the first field at fault of a 422", () => {
    expect(apiErrorMessage(new ApiError(409, { status: 'couponUsed', message: 'Already used' }))).toBe('Already used');
    expect(
      apiErrorMessage(
        new ApiError(422, {
          status: 'invalidRequest',
          message: 'The request is not valid.',
          issues: [{ path: 'code', message: 'Too short' }],
        }),
      ),
    ).toBe('Too short');
  });

  it('answers null when there is nothing to show', () => {
    expect(apiErrorMessage(new ApiError(0, null))).toBeNull();
    expect(apiErrorMessage(new Error('boom'))).toBeNull();
    expect(apiErrorMessage(new ApiError(500, 'text'))).toBeNull();
  });
});
