import { z } from 'zod';
import { API_CALLS, uploadFileCall, ZErrorResponseSchema, type Call, type CallAccess } from '@helium/contracts';
import { apiIntro } from './openapi-intro.ts';
import { XSRF_COOKIE } from './csrf.ts';
import { SESSION_COOKIE } from './session.ts';

/** The OpenAPI version of the document (3.1: its Schema Objects are JSON Schema 2020-12, what zod 4 writes). */
export const OPENAPI_VERSION = '3.1.1';
/** Where the document is served, and the reference page that renders it (api-docs.ts). */
export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs';
/** The header that carries the anti-forgery token (csrf.ts checks it on every state-changing call). */
const XSRF_HEADER = 'X-XSRF-TOKEN';

/** Who may make a call, as the reference says it, and the tag it is listed under. */
const ACCESS: Record<CallAccess, { tag: string; says: string }> = {
  public: { tag: 'Public', says: 'Anyone: no session needed.' },
  signedIn: { tag: 'Any signed-in user', says: 'Any signed-in user (advertiser, publisher or admin).' },
  advertiser: { tag: 'Advertiser', says: 'Advertisers only, for their own campaigns.' },
  publisher: { tag: 'Publisher', says: 'Publishers only, for their own sites.' },
  admin: { tag: 'Admin', says: 'Admins only.' },
  advertiserOrAdmin: { tag: 'Advertiser or admin', says: 'Advertisers and admins.' },
};

/** The error answers of the API (error-handler.ts), each with the app's error body. */
const ERRORS = {
  '401': 'Not signed in (`unauthenticated`), or the API token is unknown or revoked (`invalidApiToken`).',
  '403':
    'Signed in, but this account may not make this call or reach this item (`forbidden`, `notYour…`); a call that ' +
    'changes something made with an API token (`apiTokenReadOnly`).',
  '404': 'The item named does not exist (`notFound`, …).',
  '409': 'The item changed meanwhile, or is not in a state that allows this (`settingsChanged`, …).',
  '419': `The anti-forgery token (\`${XSRF_HEADER}\`) is missing or wrong (\`csrfTokenMismatch\`): reload it.`,
  '422': 'The body is not valid (`invalidRequest`): `issues` names each field at fault and why.',
  '429':
    'Too many attempts (`tooManyAttempts`): wait a few minutes, then try again; too many calls with one API token ' +
    '(`tooManyRequests`): wait the seconds its `Retry-After` header says.',
} as const;
type ErrorCode = keyof typeof ERRORS;

type JsonSchema = Record<string, unknown>;

/** A zod schema as a Schema Object: JSON Schema 2020-12, as the body is sent (`input`) or answered (`output`). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    // An empty tuple comes out as `prefixItems: []`, which JSON Schema forbids (at least one item): its
    // `maxItems: 0` says the same, and validators and code generators then take the document.
    override: ({ jsonSchema: node }) => {
      if (Array.isArray(node.prefixItems) && node.prefixItems.length === 0) delete node.prefixItems;
    },
  });
  return rest;
}

const errorReference = (code: ErrorCode) => ({ $ref: `#/components/responses/Error${code}` });

/** The error answers a call can give: no 401/403 without a gate, no 419 for a provider's signed call. */
function errorsOf(call: Call): ErrorCode[] {
  const codes = Object.keys(ERRORS) as ErrorCode[];
  return codes.filter(
    (code) => !(call.access === 'public' && (code === '401' || code === '403')) && !(call.signedBy && code === '419'),
  );
}

function securityOf(call: Call): Array<Record<string, string[]>> {
  if (call.access === 'public') return [];
  const session = { sessionCookie: [], xsrfHeader: [] };
  return call.token === 'read' ? [session, { bearerAuth: [] }] : [session];
}

function requestBodyOf(call: Call) {
  if (call.request) {
    return { required: true, content: { 'application/json': { schema: jsonSchema(call.request, 'input') } } };
  }
  if (call === uploadFileCall) {
    const schema = {
      type: 'object',
      properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
      required: ['file'],
    };
    return { required: true, content: { 'multipart/form-data': { schema } } };
  }
  return undefined;
}

function parametersOf(call: Call) {
  const parameters: JsonSchema[] = [];
  if (call.query) {
    const query = jsonSchema(call.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
    }
  }
  if (call.signedBy === 'stripe') {
    const description = "Stripe's signature of the body; a request without a valid one is refused.";
    parameters.push({
      name: 'Stripe-Signature',
      in: 'header',
      required: true,
      schema: { type: 'string' },
      description,
    });
  }
  return parameters;
}

/** `/api/advertiser/get-campaignex` → `advertiserGetCampaignex` (unique: paths are). */
function operationIdOf(path: string): string {
  const words = path.replace(/^\/api\//, '').split(/[^a-zA-Z0-9]+/);
  return words.map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join('');
}

function operationOf(call: Call) {
  const { tag, says } = ACCESS[call.access];
  const byToken = call.token === 'read' ? ' A personal API token may make this call (`bearerAuth`).' : '';
  const bySignature = call.signedBy ? ` Sent by ${call.signedBy}'s servers, signed.` : '';
  const requestBody = requestBodyOf(call);
  const parameters = parametersOf(call);
  const responses: Record<string, unknown> = {
    '200': {
      description: 'Done: the answer.',
      content: { 'application/json': { schema: jsonSchema(call.response, 'output') } },
    },
  };
  for (const code of errorsOf(call)) responses[code] = errorReference(code);
  return {
    operationId: operationIdOf(call.path),
    tags: [tag],
    description: `Access: ${says}${byToken}${bySignature}`,
    'x-access': call.access,
    security: securityOf(call),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

export interface OpenApiOptions {
  /** The product's public address (APP_URL): the server of the calls, and the host of the examples. */
  appUrl: string;
  /** The calls to document; every call of the contracts by default. */
  calls?: readonly Call[];
}

/** The OpenAPI 3.1 document of the API, generated from its contracts (GET /api/openapi.json). */
export function openApiDocument({ appUrl, calls = API_CALLS }: OpenApiOptions) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of calls) {
    paths[call.path] = { ...paths[call.path], [call.method.toLowerCase()]: operationOf(call) };
  }
  const responses = Object.fromEntries(
    (Object.entries(ERRORS) as Array<[ErrorCode, string]>).map(([code, description]) => [
      `Error${code}`,
      { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    ]),
  );
  const usedAccess = new Set(calls.map((call) => call.access));
  return {
    openapi: OPENAPI_VERSION,
    info: { title: 'Helium Ads API', version: '1', description: apiIntro(appUrl) },
    servers: [{ url: appUrl }],
    tags: (Object.keys(ACCESS) as CallAccess[])
      .filter((access) => usedAccess.has(access))
      .map((access) => ({ name: ACCESS[access].tag, description: ACCESS[access].says })),
    paths,
    components: {
      schemas: { Error: jsonSchema(ZErrorResponseSchema, 'output') },
      responses,
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The session of the web app, set at sign-in (`POST /api/common/signin`).',
        },
        xsrfHeader: {
          type: 'apiKey',
          in: 'header',
          name: XSRF_HEADER,
          description: `With the session: the value of the \`${XSRF_COOKIE}\` cookie (set by \`GET /sanctum/csrf-cookie\`), echoed on every call.`,
        },
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A personal API token, created on Settings (`POST /api/common/create-api-token`): read calls only, ' +
            'without the anti-forgery token.',
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
