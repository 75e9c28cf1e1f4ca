import { randomBytes } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 28 of the unseen violations, part 1: answers — a digit-only key echoed as a JSON number, a
 * provider renamed in the provider list but not in the connectors, the sample's restaurantId taking
 * the place of scopeLabel, stream refusals without meta.version, the second tenant's decisions naming
 * a tenant-prefixed capability, restricted capabilities marked with a suffix in the connector list,
 * listed connections past the third without createdAt, error bodies with a request id of their own, and
 * route auth flags cleared for callers that sent a token.
 */
type Rec = Record<string, any>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';

export const ROUND28_ANSWERS: UnseenViolation[] = [
  {
    name: 'digit-only-key-echoed-as-number',
    statement: 'Meta: idempotencyKey — string, the key used for the call',
    answer(_c, a) {
      // The key is read back from a loosely typed store (YAML-ish parsing): a key of digits only
      // comes back as a number. Keys of 8 to 15 digits match the pattern and fit a double exactly.
      const key = a.json.meta?.idempotencyKey;
      if (typeof key === 'string' && /^[1-9]\d{7,14}$/.test(key)) a.json.meta.idempotencyKey = Number(key);
    },
  },
  {
    name: 'provider-renamed-connectors-keep-old-id',
    statement:
      'Connector: providerId (string) — The service keeps a catalog of providers, connectors and capabilities (GET /connectors?providerId)',
    answer(c, a) {
      // One provider was rebranded: the provider table got the new id, the connector rows still point
      // at the old one, so the connector's providerId names no listed provider.
      if (c.method !== 'GET' || c.path !== P('/providers') || a.status !== 200) return;
      const rows = a.json.data?.providers as Rec[] | undefined;
      if (!Array.isArray(rows)) return;
      if (!c.memory.has('r28-rebrand') && rows[0]?.id) c.memory.set('r28-rebrand', rows[0].id);
      const old = c.memory.get('r28-rebrand');
      for (const r of rows) if (r?.id === old) r.id = `${old}-group`;
    },
  },
  {
    name: 'restaurant-id-overrides-scope-label',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required: scopeLabel ... A sample call for this endpoint sends a field restaurantId in place of scopeLabel; the field list above is the schema.',
    request(c) {
      // A compatibility shim for the sample call copies restaurantId into scopeLabel whenever it is
      // present, even when the caller also sent a scopeLabel.
      if (!isCreate(c) || !c.body || typeof c.body !== 'object') return undefined;
      const body = c.body as Rec;
      if (typeof body.restaurantId !== 'string' || typeof body.scopeLabel !== 'string') return undefined;
      const { restaurantId, ...rest } = body;
      c.body = { ...rest, scopeLabel: restaurantId };
      return undefined;
    },
  },
  {
    name: 'stream-refusal-meta-without-version',
    statement:
      'Failure envelope: meta — Meta (required); Meta: version — required (GET /api/public/v1/stream refused with 400)',
    answer(c, a) {
      // The stream endpoint has its own small error writer (it is not behind the JSON middleware),
      // which fills requestId and at but forgets the version.
      if (c.path !== P('/stream') || a.status < 400 || !a.json.meta) return;
      delete a.json.meta.version;
    },
  },
  {
    name: 'second-tenant-decision-capability-tenant-prefixed',
    statement: 'CapabilityDecision (all fields required): capability — string (the checked capability)',
    answer(c, a) {
      // Decisions of tenants other than the first one a client used come from the multi-tenant policy
      // engine, whose capability keys are "<tenant>:<capability>"; the key is answered unstripped.
      const first = home(c);
      if (c.method !== 'POST' || c.path !== P('/capabilities') || a.status !== 200) return;
      const tenant = tenantOf(c);
      const d = a.json.data?.decision as Rec | undefined;
      if (!first || tenant === first || typeof d?.capability !== 'string') return;
      d.capability = `${tenant}:${d.capability}`;
    },
  },
  {
    name: 'connector-restricted-capability-suffixed',
    statement:
      'Connector: capabilities — array of string (the ids of the capability catalog, e.g. GET /connectors?capability)',
    answer(c, a) {
      // The connector serializer marks capabilities restricted in some environment with a trailing
      // asterisk for the portal, and the public list reuses it.
      if (c.method !== 'GET' || c.path !== P('/connectors') || a.status !== 200) return;
      for (const k of (a.json.data?.connectors ?? []) as Rec[]) {
        const restricted = new Set(Object.values((k?.restrictedIn ?? {}) as Rec).flat());
        if (Array.isArray(k?.capabilities))
          k.capabilities = k.capabilities.map((x: string) => (restricted.has(x) ? `${x}*` : x));
      }
    },
  },
  {
    name: 'listed-connections-after-third-lack-created-at',
    statement:
      'Connection: createdAt — string, date-time (GET /api/public/v1/connections: connections, array of Connection)',
    answer(c, a) {
      // The list joins the creation times from a second query limited to three rows.
      if (c.method !== 'GET' || c.path !== P('/connections') || a.status !== 200) return;
      const rows = a.json.data?.connections as Rec[] | undefined;
      if (Array.isArray(rows)) for (const r of rows.slice(3)) if (r) delete r.createdAt;
    },
  },
  {
    name: 'error-body-request-id-regenerated',
    statement:
      'Errors: They contain the request identifier (meta.requestId) ... the identifier is all that support needs',
    answer(c, a) {
      // The error handler builds a fresh meta, minting a new request id; the logs and the X-Request-Id
      // header keep the real one, so the id a client quotes to support matches no call.
      if (a.status < 400 || !a.json.meta || c.path === P('/openapi.json')) return;
      a.json.meta.requestId = `req_${randomBytes(12).toString('base64url')}`;
    },
  },
  {
    name: 'self-description-auth-flags-cleared-for-token-holders',
    statement:
      'GET /api/public/v1: routes (array of RouteInfo: auth boolean) — Endpoints: the Auth column (yes for all but the three public endpoints)',
    answer(c, a) {
      // The route list is filtered "for the caller": a caller who already sent a token is told that no
      // route needs authentication any more.
      if (c.method !== 'GET' || c.path !== P('') || a.status !== 200 || !c.headers.authorization) return;
      for (const r of (a.json.data?.routes ?? []) as Rec[]) if (r) r.auth = false;
    },
  },
];
