import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 39 of the unseen violations, part 3: the self-description, the OpenAPI document and its files —
 * self-descriptions whose routes vanish after the first call, an idempotency summary without the webhook
 * registration, the current YAML file's key pattern without the colon, the earlier JSON file named after
 * the current version, vendor-typed document requests answered with OpenAPI 3.0, the alternate
 * self-description listing a batch route it does not serve, and a self-description quoting a client secret.
 */
type Rec = Record<string, any>;
const CURRENT = '2026-07-01';
const EARLIER = '2026-06-12';
const isSelf = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && (c.path === P('') || c.path === P('/')) && a.status === 200 && Boolean(a.json.data);
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? CURRENT;

export const ROUND39_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'self-description-routes-empty-after-first-call',
    statement: 'GET /api/public/v1: data: … routes (array of RouteInfo) (every call, not only the first one)',
    answer(c, a) {
      // The description is cached after the first build; the cache serialiser drops arrays of class instances.
      home(c);
      if (!isSelf(c, a)) return;
      if (c.memory.get('r39-self-served')) a.json.data.routes = [];
      c.memory.set('r39-self-served', true);
    },
  },
  {
    name: 'self-description-idempotency-omits-webhook-registration',
    statement:
      'Endpoints: POST /api/public/v1/webhooks | yes + key (the self-description’s idempotency summary names every keyed call)',
    answer(c, a) {
      // The summary is built from a hand-kept list written before webhooks needed keys.
      home(c);
      const idem = a.json.data?.idempotency as Rec | undefined;
      if (!isSelf(c, a) || !Array.isArray(idem?.requiredOn)) return;
      idem.requiredOn = (idem.requiredOn as unknown[]).filter((r) => !String(r).includes('/webhooks'));
    },
  },
  {
    name: 'yaml-key-pattern-without-colon',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$; The description is also offered as downloadable JSON and YAML files per version (the current YAML file too)',
    stream(c, lines) {
      // The YAML writer treats ":" inside a plain scalar as a mapping indicator and strips it from the pattern.
      home(c);
      if (c.method !== 'GET' || c.path !== P('/openapi.yaml') || versionOf(c) !== CURRENT) return lines;
      return lines.replaceAll('[A-Za-z0-9._:-]{8,128}', '[A-Za-z0-9._-]{8,128}');
    },
  },
  {
    name: 'earlier-json-file-named-current',
    statement:
      'GET /api/public/v1/openapi.json: The description is also offered as downloadable JSON and YAML files per version (the 2026-06-12 file is named for its version)',
    answer(c, a) {
      // The download name comes from the build's version constant, not from the version that was asked for.
      home(c);
      const disposition = a.headers['content-disposition'];
      if (isDoc(c, a) && versionOf(c) === EARLIER && disposition)
        a.headers['content-disposition'] = disposition.replaceAll(EARLIER, CURRENT);
    },
  },
  {
    name: 'openapi-vendor-accept-served-3-0',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description … as a JSON object (OpenAPI 3.1) (an Accept naming the OpenAPI media type too)',
    answer(c, a) {
      // Asking for application/vnd.oai.openapi+json reaches a legacy exporter that still writes 3.0.3.
      home(c);
      if (isDoc(c, a) && /vnd\.oai\.openapi/i.test(c.headers.accept ?? '')) a.json.openapi = '3.0.3';
    },
  },
  {
    name: 'alt-self-description-lists-unserved-batch-route',
    statement:
      'The same interface is also offered under a second main-domain address {alt_base_url}; GET /api/public/v1: routes (array of RouteInfo) (alternate routes are served there)',
    answer(c, a) {
      // The alternate region's description comes from the next release's route table; the batch route is not live.
      home(c);
      const routes = a.json.data?.routes;
      if (c.base === 'alt' && isSelf(c, a) && Array.isArray(routes))
        routes.push({
          method: 'POST',
          path: P('/connections/batch'),
          purpose: 'create several connections',
          auth: true,
        });
    },
  },
  {
    name: 'self-description-authentication-lists-client-secret',
    statement:
      'Access credentials stay in the partner’s backend; Rules for credentials: No fixed keys in source code … credentials live in a protected store (the public self-description quotes none)',
    answer(c, a) {
      // The description merges the whole OAuth config object, and the example client's secret came along.
      home(c);
      const auth = a.json.data?.authentication as Rec | undefined;
      if (isSelf(c, a) && auth && typeof auth === 'object')
        auth.exampleClient = { clientId: 'ncs-docs-example', clientSecret: 'ncs_cs_live_7Hq2Vb9LmZx4Rt8Pw3Ky6Ne1' };
    },
  },
];
