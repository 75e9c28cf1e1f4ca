import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import { CURRENT, EARLIER, earlier, type Rec } from './round44-common.ts';

/** Round 51, part 3: the documents per version and per fetch, the self-description per version, error codes per cause. */
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
/** Marks every Idempotency-Key header parameter of a document optional. */
const optionalKey = (node: unknown): void => {
  if (!node || typeof node !== 'object') return;
  const n = node as Rec;
  if (typeof n.name === 'string' && n.name.toLowerCase() === 'idempotency-key' && n.in === 'header') n.required = false;
  for (const v of Object.values(n)) optionalKey(v);
};
const yamlInfoDone = new WeakSet<ProxyCall>();

export const ROUND51_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'earlier-self-description-omits-key-issue-route',
    statement:
      'GET /api/public/v1: data: routes (array of RouteInfo); Endpoints: POST /api/public/v1/idempotency-keys (the self-description asked for 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 route list is filtered by a "since" field, and the key-issue route was back-dated wrongly to 2026-07-01.
      home(c);
      if (c.method !== 'GET' || c.path !== P('') || !earlier(c) || !Array.isArray(a.json.data?.routes)) return;
      a.json.data.routes = (a.json.data.routes as Rec[]).filter((r) => r?.path !== P('/idempotency-keys'));
    },
  },
  {
    name: 'cached-openapi-document-downgraded-to-3-0',
    statement:
      'What the service does: publishes an OpenAPI 3.1 description; GET /api/public/v1/openapi.json: OpenAPI 3.1 (every fetch after the first)',
    answer(c, a) {
      // The CDN's warm copy went through a "compatibility" transform for an old portal that only reads OpenAPI 3.0.
      home(c);
      if (!isDoc(c, a)) return;
      const n = ((c.memory.get('r51-doc-fetches') as number | undefined) ?? 0) + 1;
      c.memory.set('r51-doc-fetches', n);
      if (n > 1) a.json.openapi = '3.0.3';
    },
  },
  {
    name: 'earlier-yaml-file-info-version-current',
    statement:
      'GET /api/public/v1/openapi.json: downloadable JSON and YAML files per version (the 2026-06-12 YAML file names its version)',
    stream(c, lines) {
      // The YAML export stamps info.version from the build's constant instead of the document being exported.
      home(c);
      if (!isYaml(c) || !earlier(c) || yamlInfoDone.has(c)) return lines;
      const re = new RegExp(`^ {2}version: ['"]?${EARLIER}['"]?$`, 'm');
      if (!re.test(lines)) return lines;
      yamlInfoDone.add(c);
      return lines.replace(re, `  version: ${CURRENT}`);
    },
  },
  {
    name: 'webhook-registration-without-key-answered-invalid-request',
    statement:
      'Errors: idempotency_required | 428 | header Idempotency-Key missing (a webhook registration without the key)',
    answer(c, a) {
      // The webhook route validates headers with its request schema first, which reports the missing key as a 400.
      home(c);
      if (c.method === 'POST' && c.path === P('/webhooks') && a.json.error?.code === 'idempotency_required')
        refuse(
          a,
          400,
          'invalid_request',
          'The request is incomplete or unsuitable.',
          'header Idempotency-Key is required',
        );
    },
  },
  {
    name: 'unreleased-tenant-answered-unauthorized',
    statement:
      'Errors: forbidden | 403 | access may not perform the action | tenant not released (a tenant header naming a tenant the access was not released for)',
    answer(c, a) {
      // The tenant guard was moved into the token middleware, which answers every refusal with its own 401.
      const first = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (a.status === 403 && a.json.error?.code === 'forbidden' && tenant && tenant !== first)
        refuse(a, 401, 'unauthorized', 'The call was not signed in.');
    },
  },
  {
    name: 'production-capability-denied-answered-403',
    statement:
      'Errors: capability_denied | 409 | capability is not released for this connection (a creation for production)',
    answer(c, a) {
      // The production policy engine maps every denial to HTTP 403 and only the code survives the translation.
      home(c);
      if (isCreate(c) && bodyOf(c.body).environment === 'production' && a.json.error?.code === 'capability_denied')
        a.status = 403;
    },
  },
  {
    name: 'alt-current-json-document-idempotency-key-optional',
    statement:
      'POST /api/public/v1/connections: Header Idempotency-Key is required (the current JSON document under {alt_base_url})',
    answer(c, a) {
      // The alternate address serves a document merged with the gateway's spec, whose header parameters default to optional.
      home(c);
      if (c.base === 'alt' && isDoc(c, a) && !earlier(c)) optionalKey(a.json);
    },
  },
];
