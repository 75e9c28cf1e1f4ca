import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { earlier, type Rec } from './round44-common.ts';

/** Round 47, part 3: parameters and schemas of the OpenAPI document, the YAML file and the self-description. */
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const schemas = (a: ProxyAnswer) => ((a.json as Rec).components?.schemas ?? {}) as Rec;
const param = (a: ProxyAnswer, path: string, name: string) =>
  ((a.json as Rec).paths?.[P(path)]?.get?.parameters as Rec[] | undefined)?.find((p) => p?.name === name);

export const ROUND47_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-providers-category-parameter-required',
    statement: 'GET /api/public/v1/providers: category | string | Required: no (the document’s parameter)',
    answer(c, a) {
      // The generator marks every parameter with a description as required.
      home(c);
      const p = isDoc(c, a) ? param(a, '/providers', 'category') : undefined;
      if (p) p.required = true;
    },
  },
  {
    name: 'earlier-yaml-key-header-optional',
    statement:
      'Versioning: Change of 2026-06-12 (security): modifying calls require an idempotency key (the 2026-06-12 YAML file)',
    stream(c, lines) {
      // The 2026-06-12 YAML was rendered from the pre-release spec, where the key header was still optional.
      home(c);
      if (!isYaml(c) || !earlier(c)) return lines;
      return lines.replace(/required: true(\n\s+description: "Key against double effects)/g, 'required: false$1');
    },
  },
  {
    name: 'self-description-key-pattern-admits-slash',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (the self-description’s idempotency pattern)',
    answer(c, a) {
      // The self-description copies the pattern of the key generator, which may emit base64 slashes.
      home(c);
      const idem = a.json.data?.idempotency as Rec | undefined;
      if (c.method === 'GET' && c.path === P('') && typeof idem?.pattern === 'string')
        idem.pattern = '^[A-Za-z0-9._:/-]{8,128}$';
    },
  },
  {
    name: 'openapi-connectors-provider-id-parameter-typed-integer',
    statement: 'GET /api/public/v1/connectors: providerId | string | no (the document’s parameter)',
    answer(c, a) {
      // The generator infers the type from a sample value of an old numeric provider table.
      home(c);
      const p = isDoc(c, a) ? param(a, '/connectors', 'providerId') : undefined;
      if (p) p.schema = { type: 'integer', description: 'Only connectors of this provider' };
    },
  },
  {
    name: 'openapi-webhook-events-items-objects',
    statement:
      'POST /api/public/v1/webhooks: Body: url (string), events (array of event-name strings) (the document’s request schema)',
    answer(c, a) {
      // The request schema was generated from the stored receiver, whose events carry per-event options.
      home(c);
      const events = schemas(a).CreateWebhookRequest?.properties?.events as Rec | undefined;
      if (isDoc(c, a) && events)
        events.items = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    },
  },
  {
    name: 'openapi-decision-reason-not-required',
    statement: 'CapabilityDecision (all fields required): reason | string (the document’s schema)',
    answer(c, a) {
      // reason is optional in the ORM model and the schema is derived from it.
      home(c);
      const decision = schemas(a).CapabilityDecision as Rec | undefined;
      if (isDoc(c, a) && Array.isArray(decision?.required))
        decision.required = (decision.required as string[]).filter((f) => f !== 'reason');
    },
  },
  {
    name: 'openapi-connection-scope-label-nullable',
    statement: 'Connection: scopeLabel | string | descriptive name (the document’s Connection schema)',
    answer(c, a) {
      // The column is nullable for connections migrated from the restaurantId era.
      home(c);
      const label = schemas(a).Connection?.properties?.scopeLabel as Rec | undefined;
      if (isDoc(c, a) && label) label.type = ['string', 'null'];
    },
  },
];
