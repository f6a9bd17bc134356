import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CALLS, getCampaignExCall, type Call } from '@helium/contracts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { OPENAPI_VERSION, openApiDocument, type OpenApiDocument } from './openapi.ts';

interface Operation {
  'x-access': string;
  security: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, { type?: string }> } }> };
  responses: Record<string, { $ref?: string; content?: unknown }>;
}

let t: TestApp;
let served: OpenApiDocument;
beforeAll(async () => {
  t = await buildTestApp();
  const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  served = response.json();
});
afterAll(async () => {
  await t?.close();
});

/** Every `METHOD path` the document lists. */
function operationsOf(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** The contracts of API_CALLS the document lacks. */
function missingFrom(document: OpenApiDocument): string[] {
  const listed = new Set(operationsOf(document));
  return API_CALLS.map((call) => `${call.method} ${call.path}`).filter((call) => !listed.has(call));
}

const operation = (call: Call) => served.paths[call.path]![call.method.toLowerCase()] as Operation;

describe('GET /api/openapi.json (issue 35, point 1)', () => {
  it('is a valid OpenAPI 3.1 document, its references resolved', async () => {
    const validator = new Validator();
    // A copy: resolving the references rewrites the document given.
    const result = await validator.validate(structuredClone(served) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(served.openapi).toBe(OPENAPI_VERSION);
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('holds no schema JSON Schema forbids: an empty tuple has no empty prefixItems', () => {
    const emptyPrefixItems: string[] = [];
    const visit = (node: unknown, path: string) => {
      if (typeof node !== 'object' || node === null) return;
      const prefixItems = (node as { prefixItems?: unknown }).prefixItems;
      if (Array.isArray(prefixItems) && prefixItems.length === 0) emptyPrefixItems.push(path);
      for (const [key, value] of Object.entries(node)) visit(value, `${path}/${key}`);
    };
    visit(served, '#');
    expect(emptyPrefixItems).toEqual([]);
    // The call whose statsDateRange may be empty still says so.
    expect(JSON.stringify(served)).toContain('"maxItems":0');
  });

  it('lists every call of the contracts, and only these', () => {
    expect(missingFrom(served)).toEqual([]);
    expect(operationsOf(served).sort()).toEqual(API_CALLS.map((call) => `${call.method} ${call.path}`).sort());
  });

  it('fails the check when a contract is missing from it', () => {
    const partial = openApiDocument({ appUrl: 'http://localhost', calls: API_CALLS.slice(1) });
    expect(missingFrom(partial)).toEqual([`${API_CALLS[0].method} ${API_CALLS[0].path}`]);
  });

  it('gives each call its access, and the security it takes', () => {
    for (const call of API_CALLS) {
      const { 'x-access': access, security } = operation(call);
      expect(access, call.path).toBe(call.access);
      if (call.access === 'public') expect(security, call.path).toEqual([]);
      else expect(security, call.path).toContainEqual({ sessionCookie: [], xsrfHeader: [] });
      expect(
        security.some((scheme) => 'bearerAuth' in scheme),
        call.path,
      ).toBe(call.token === 'read');
    }
    expect(served.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(served.components.securitySchemes.sessionCookie).toMatchObject({ in: 'cookie', name: 'helium_session' });
    expect(served.components.securitySchemes.xsrfHeader).toMatchObject({ in: 'header', name: 'X-XSRF-TOKEN' });
  });

  it('gives each call its request and response schemas, and the error answers with the error body', () => {
    const campaign = operation(getCampaignExCall);
    const body = campaign.requestBody!.content['application/json']!.schema;
    expect(body.properties?.campaignId?.type).toBe('integer');
    expect(campaign.responses['200']?.content).toBeDefined();
    for (const code of ['401', '403', '404', '409', '419', '422', '429']) {
      expect(campaign.responses[code]).toEqual({ $ref: `#/components/responses/Error${code}` });
    }
    expect(served.components.schemas.Error).toMatchObject({
      type: 'object',
      properties: { status: { type: 'string' }, message: { type: 'string' } },
      required: ['status', 'message'],
    });
    for (const call of API_CALLS) {
      const { responses } = operation(call);
      expect(Object.keys(responses), call.path).toEqual(expect.arrayContaining(['200', '404', '409', '422', '429']));
      if (call.access !== 'public') expect(Object.keys(responses), call.path).toContain('401');
    }
  });

  it('introduces the personal API tokens with curl examples against the product', () => {
    expect(served.info.description).toContain("curl -H 'Authorization: Bearer <token>'");
    expect(served.info.description).toContain(
      `${t.app.ctx.config.appUrl.replace(/\/$/, '')}/api/advertiser/get-campaignex`,
    );
    expect(served.servers).toEqual([{ url: t.app.ctx.config.appUrl }]);
  });
});

describe('GET /api/docs (issue 35, point 2)', () => {
  it('is a page of the product with its CSP unchanged, loading only its own scripts', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self';");
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<]/);
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources.every((source) => source.startsWith('/'))).toBe(true);
    for (const source of sources.filter((path) => path.startsWith('/api/docs/'))) {
      const asset = await t.app.inject({ method: 'GET', url: source });
      expect(asset.statusCode, source).toBe(200);
      expect(asset.body.length, source).toBeGreaterThan(0);
    }
  });

  it('serves only the viewer files it names, of its version', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    const bundle = /src="([^"]+swagger-ui-bundle\.js)"/.exec(page.body)![1]!;
    for (const url of [
      bundle.replace('swagger-ui-bundle.js', 'package.json'),
      bundle.replace(/assets\/[^/]+\//, 'assets/0.0.0/'),
      bundle.replace('swagger-ui-bundle.js', '..%2F..%2Fpackage.json'),
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});
