import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 13 of the unseen violations, part 1: answers wrong in one detail — meta.at as a number on
 * catalog reads, connector capabilities as objects when filtered, the previous creation's key echoed,
 * a replay with a recomputed nextStep, a fractional remaining count, the self-description's
 * authentication as text and its routes keyed by path, a missing token answered 400, and a denied
 * decision without its connectorId.
 */
type Rec = Record<string, any>;
const isSelf = (c: ProxyCall) => c.method === 'GET' && c.path === P('');
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const ok = (a: ProxyAnswer) => a.status === 200 && a.json.ok === true;
const publicPaths = new Set([P(''), P('/openapi.json'), P('/stream')]);

export const ROUND13_ANSWERS: UnseenViolation[] = [
  {
    name: 'catalog-meta-at-epoch-number',
    statement: 'Meta: at | string, date-time | yes',
    answer(c, a) {
      // The catalog endpoints are served from a cache layer that stores meta.at as Date.now().
      const catalog = [P('/providers'), P('/connectors'), P('/capabilities')];
      if (c.method === 'GET' && catalog.includes(c.path) && ok(a) && typeof a.json.meta?.at === 'string')
        a.json.meta.at = Date.parse(a.json.meta.at);
    },
  },
  {
    name: 'provider-filtered-connector-capabilities-as-objects',
    statement: 'Connector: capabilities | array of string',
    answer(c, a) {
      // The providerId filter goes through a join query that returns the capability rows, not their ids.
      if (c.method !== 'GET' || c.path !== P('/connectors') || !c.search.get('providerId') || !ok(a)) return;
      for (const x of (a.json.data?.connectors ?? []) as Rec[])
        if (Array.isArray(x.capabilities)) x.capabilities = x.capabilities.map((id: unknown) => ({ id }));
    },
  },
  {
    name: 'creation-echoes-previous-key',
    statement: 'Meta: idempotencyKey | string | no | the key used for the call',
    answer(c, a) {
      // The key echo reads a module-level variable that still holds the previous request's key.
      if (!isCreate(c)) return;
      const key = c.headers['idempotency-key'];
      const previous = c.memory.get('r13-previous-key') as string | undefined;
      if (key) c.memory.set('r13-previous-key', key);
      if (previous && previous !== key && a.json.meta?.idempotencyKey === key) a.json.meta.idempotencyKey = previous;
    },
  },
  {
    name: 'replay-next-step-recomputed',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again',
    answer(c, a) {
      // The replay path caches the row but re-derives nextStep from the current wording table.
      if (isCreate(c) && ok(a) && a.json.meta?.replayed === true && typeof a.json.data?.nextStep === 'string')
        a.json.data.nextStep = `${a.json.data.nextStep} (see the developer portal)`;
    },
  },
  {
    name: 'remaining-fractional',
    statement: 'Rate limits: Response headers: X-RateLimit-Remaining (calls left in the window)',
    answer(_c, a) {
      // The token bucket refills continuously and its float level is written out unrounded.
      const left = a.headers['x-ratelimit-remaining'];
      if (left !== undefined && /^\d+$/.test(left) && Number(left) > 1)
        a.headers['x-ratelimit-remaining'] = `${Number(left) - 1}.5`;
    },
  },
  {
    name: 'self-description-authentication-as-text',
    statement: 'GET /api/public/v1: data: … authentication (free-form object), idempotency (free-form object)',
    answer(c, a) {
      // The description template renders the authentication block as a sentence.
      if (isSelf(c) && ok(a) && a.json.data && typeof a.json.data.authentication === 'object')
        a.json.data.authentication = 'OAuth 2.1 bearer token and x-service-tenant header';
    },
  },
  {
    name: 'self-description-routes-keyed-by-path',
    statement: 'GET /api/public/v1: data: … routes (array of RouteInfo)',
    answer(c, a) {
      // The route table is serialised from a Map keyed "METHOD path" rather than as a list.
      if (!isSelf(c) || !ok(a) || !Array.isArray(a.json.data?.routes)) return;
      a.json.data.routes = Object.fromEntries(
        (a.json.data.routes as Rec[]).map(({ method, path, ...rest }) => [`${method} ${path}`, rest]),
      );
    },
  },
  {
    name: 'missing-token-as-invalid-request',
    statement: 'Errors: unauthorized | 401 | call was not signed in | token missing, token expired, wrong environment',
    answer(c, a) {
      // The header validator runs before the auth middleware and reports a missing Authorization as a bad request.
      if (c.headers.authorization === undefined && !publicPaths.has(c.path) && a.status === 401)
        refuse(a, 400, 'invalid_request', 'Header authorization is required.');
    },
  },
  {
    name: 'denied-decision-connector-id-null',
    statement: 'CapabilityDecision (all fields required): connectorId | string',
    answer(c, a) {
      // A denied decision is built from the empty "no grant" record, which has no connector.
      if (isCheck(c) && ok(a) && a.json.data?.decision?.allowed === false) a.json.data.decision.connectorId = null;
    },
  },
];
