import { randomUUID } from 'node:crypto';
import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 40 of the unseen violations, part 3: the OpenAPI document, its files and the self-description —
 * the alternate document allowing 23 capabilities, the earlier document leaving a decision's reason
 * optional, the earlier YAML file capping scope labels at 100, the
 * earlier document sent with a byte order mark, creations documented without pilot, and the alternate
 * self-description marking the key endpoint public.
 */
type Rec = Record<string, any>;
const CURRENT = '2026-07-01';
const EARLIER = '2026-06-12';
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? CURRENT;
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isSelf = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && (c.path === P('') || c.path === P('/')) && a.status === 200 && Boolean(a.json.data);
/** Visits every object of a document (schemas sit in components and inline alike). */
const walk = (node: unknown, visit: (o: Rec) => void): void => {
  if (Array.isArray(node)) for (const n of node) walk(n, visit);
  else if (node && typeof node === 'object') {
    visit(node as Rec);
    for (const v of Object.values(node as Rec)) walk(v, visit);
  }
};

export const ROUND40_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'alt-openapi-capabilities-max-items-23',
    statement:
      'Limits: capabilities in connection creation | 1 to 24 items (the OpenAPI document under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's document is rendered from a config copy where someone "fixed" an off-by-one.
      home(c);
      if (c.base !== 'alt' || !isDoc(c, a)) return;
      walk(a.json, (o) => {
        if (o.type === 'array' && o.maxItems === 24) o.maxItems = 23;
      });
    },
  },
  {
    name: 'earlier-openapi-decision-reason-not-required',
    statement: 'CapabilityDecision (all fields required): … reason | string (the 2026-06-12 document too)',
    answer(c, a) {
      // The 2026-06-12 document is generated from a schema where reason was still optional.
      home(c);
      if (!isDoc(c, a) || versionOf(c) !== EARLIER) return;
      walk(a.json, (o) => {
        if (o.properties?.reason && o.properties?.allowed && Array.isArray(o.required))
          o.required = (o.required as string[]).filter((r) => r !== 'reason');
      });
    },
  },
  {
    name: 'earlier-yaml-scope-label-max-length-100',
    statement:
      'Limits: scopeLabel | length 2 to 120; The description is also offered as downloadable JSON and YAML files per version (the 2026-06-12 YAML file too)',
    request(c) {
      // The earlier YAML file was exported once from a branch that had the venue-name column at 100.
      home(c);
      if (c.method !== 'GET' || c.path !== P('/openapi.yaml') || versionOf(c) !== EARLIER) return undefined;
      const doc = structuredClone(buildOpenApiDocument({ version: EARLIER }) as Rec);
      walk(doc, (o) => {
        if (o.properties?.scopeLabel?.maxLength === 120) o.properties.scopeLabel.maxLength = 100;
      });
      const answer: ProxyAnswer = {
        status: 200,
        headers: {
          'content-type': 'application/yaml; charset=utf-8',
          'content-disposition': `inline; filename="ncs-openapi-${EARLIER}.yaml"`,
          'x-content-type-options': 'nosniff',
          'x-request-id': `req_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
        },
        json: {},
        raw: openApiYaml(doc),
      };
      return answer;
    },
  },
  {
    name: 'earlier-openapi-with-byte-order-mark',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (the 2026-06-12 document too)',
    answer(c, a) {
      // The 2026-06-12 document is served from a file saved by an editor that writes a UTF-8 BOM.
      home(c);
      if (isDoc(c, a) && versionOf(c) === EARLIER) a.raw = `\uFEFF${JSON.stringify(a.json)}`;
    },
  },
  {
    name: 'openapi-creation-environment-enum-omits-pilot',
    statement:
      'Environment (enumeration): development, sandbox, pilot, production; POST /api/public/v1/connections: environment | Environment (the document’s creation body)',
    answer(c, a) {
      // The creation body's enum is copied from the billing service, which has no pilot plan.
      home(c);
      if (!isDoc(c, a)) return;
      const body = (a.json.components as Rec | undefined)?.schemas?.CreateConnectionRequest as Rec | undefined;
      const env = body?.properties?.environment as Rec | undefined;
      if (body && env) body.properties.environment = { type: 'string', enum: ['development', 'sandbox', 'production'] };
    },
  },
  {
    name: 'alt-self-description-key-route-marked-public',
    statement:
      'Endpoints: POST /api/public/v1/idempotency-keys | yes | generate an idempotency key (the self-description under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's route list marks every route without "+ key" in its table as public.
      home(c);
      const routes = a.json.data?.routes;
      if (c.base !== 'alt' || !isSelf(c, a) || !Array.isArray(routes)) return;
      for (const r of routes as Rec[]) if (r?.method === 'POST' && r?.path === P('/idempotency-keys')) r.auth = false;
    },
  },
];
