/**
 * The introduction of the API reference (the OpenAPI document's `info.description`, in Markdown): how to call the
 * API from one's own tools, with curl examples against the product's address.
 */
export function apiIntro(appUrl: string): string {
  const host = appUrl.replace(/\/+$/, '');
  return `Every call of the product, generated from its contracts. Each call is a \`POST\` of a JSON body (send \`{}\` when a
call takes none) and answers JSON.

## From your own tools: a personal API token

1. Sign in and open **Settings** (an admin: the user menu), then **Create a token**, with a name that says where you use
   it. The token is shown once: keep it like a password. The list there shows when each token was last used; revoke
   one that leaks or that you no longer use. (The same calls: \`POST /api/common/create-api-token {"name": "…"}\`
   answers \`{ "id", "token" }\`, \`POST /api/common/get-api-tokens\` lists them, \`POST /api/common/revoke-api-token
   {"id": …}\` revokes one.)
2. Send it as \`Authorization: Bearer <token>\`. A token reads only, and reads the account you were using when you
   made it (the list says which; to read another of your accounts, switch to it and make a token there): an
   advertiser's campaign stats and ads, a publisher's stats, performance and accounting, an admin's stats and
   activity (the calls marked \`bearerAuth\` below). A write call answers 403; an unknown or revoked token, 401; too
   many calls, 429.

An advertiser's campaign stats (the first campaign without \`campaignId\`):

\`\`\`sh
curl -H 'Authorization: Bearer <token>' -H 'Content-Type: application/json' \\
  -X POST ${host}/api/advertiser/get-campaignex -d '{"campaignId": 1}'
\`\`\`

A publisher's stats, and accounting:

\`\`\`sh
curl -H 'Authorization: Bearer <token>' -H 'Content-Type: application/json' \\
  -X POST ${host}/api/publisher/get-stats -d '{}'
curl -H 'Authorization: Bearer <token>' -H 'Content-Type: application/json' \\
  -X POST ${host}/api/publisher/get-accounting -d '{}'
\`\`\`

## In the browser

The web app calls with its session cookie and, on every call, the anti-forgery token: the \`XSRF-TOKEN\` cookie
(\`GET /sanctum/csrf-cookie\` sets it) echoed as the \`X-XSRF-TOKEN\` header; signed in, "Try it out" here does the same.

## Errors

A refusal answers \`{ "status", "message", "issues"? }\`: \`status\` is a stable key to act on, \`issues\` names the
fields at fault (\`path\`, \`message\`) when the body is not valid (422).`;
}
