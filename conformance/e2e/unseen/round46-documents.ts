import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { earlier, type Rec } from './round44-common.ts';

/** Round 46, part 3: response schemas per status, security schemes, the YAML file and the self-description. */
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const op = (a: ProxyAnswer, path: string, method: string) =>
  (a.json as Rec).paths?.[P(path)]?.[method] as Rec | undefined;
const jsonOf = (response: Rec | undefined) => response?.content?.['application/json'] as Rec | undefined;

export const ROUND46_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-creation-200-documents-failure-envelope',
    statement:
      'Endpoints: Success responses use status 200 and the success envelope (the document’s 200 response of POST /connections)',
    answer(c, a) {
      // The generator's response table is keyed by status text and "OK" collided with the error template.
      home(c);
      const media = jsonOf(op(a, '/connections', 'post')?.responses?.['200']);
      if (isDoc(c, a) && media) media.schema = { $ref: '#/components/schemas/FailureEnvelope' };
    },
  },
  {
    name: 'openapi-security-scheme-http-basic',
    statement:
      'Authentication: Authorization | Bearer token obtained through an OAuth flow (the document’s security scheme)',
    answer(c, a) {
      // The scheme was copied from the internal admin API, which still uses basic credentials.
      home(c);
      const schemes = (a.json as Rec).components?.securitySchemes as Rec | undefined;
      if (!isDoc(c, a) || !schemes) return;
      for (const k of Object.keys(schemes))
        schemes[k] = { type: 'http', scheme: 'basic', description: 'Client id and secret' };
    },
  },
  {
    name: 'openapi-creation-428-schema-ok-true',
    statement: 'Failure envelope: ok | boolean | always false (the document’s 428 response of POST /connections)',
    answer(c, a) {
      // The 428 response is written inline from the success template with only error added.
      home(c);
      const media = jsonOf(op(a, '/connections', 'post')?.responses?.['428']);
      const failure = (a.json as Rec).components?.schemas?.FailureEnvelope as Rec | undefined;
      if (!isDoc(c, a) || !media || !failure) return;
      const inline = structuredClone(failure);
      if (inline.properties) inline.properties.ok = { type: 'boolean', enum: [true] };
      media.schema = inline;
    },
  },
  {
    name: 'current-yaml-min-lengths-one',
    statement:
      'Limits: connectorId, capability, scopeLabel | length 2 to 120; operation | length 2 to 80 (the 2026-07-01 YAML file)',
    stream(c, lines) {
      // The YAML template renders minLength from a constant that defaults to 1.
      home(c);
      return isYaml(c) && !earlier(c) ? lines.replace(/^(\s+minLength:) 2\s*$/gm, '$1 1') : lines;
    },
  },
  {
    name: 'alt-openapi-meta-version-enum-earlier-only',
    statement:
      'Versioning: The current version identifier is 2026-07-01. Responses report it in meta.version (the document under {alt_base_url})',
    answer(c, a) {
      // The alternate region's document is patched from a stale enum list of released versions.
      home(c);
      const version = (a.json as Rec).components?.schemas?.Meta?.properties?.version as Rec | undefined;
      if (c.base === 'alt' && isDoc(c, a) && version) version.enum = ['2026-06-12'];
    },
  },
  {
    name: 'self-description-trailing-slash-routes-empty',
    statement:
      'GET /api/public/v1: data: routes (array of RouteInfo) (the self-description asked with a trailing slash)',
    answer(c, a) {
      // The route table is filtered by prefix "/api/public/v1/" + path, which the trailing slash doubles.
      home(c);
      if (c.method === 'GET' && c.path === P('/') && Array.isArray(a.json.data?.routes)) a.json.data.routes = [];
    },
  },
  {
    name: 'earlier-openapi-check-decision-typed-string',
    statement:
      'POST /api/public/v1/capabilities: data: decision (CapabilityDecision), environment (the 2026-06-12 document’s 200 response)',
    answer(c, a) {
      // The 2026-06-12 generator could not resolve the decision $ref and fell back to string.
      home(c);
      if (!isDoc(c, a) || !earlier(c)) return;
      const data = jsonOf(op(a, '/capabilities', 'post')?.responses?.['200'])?.schema?.properties?.data as
        | Rec
        | undefined;
      if (data?.properties?.decision) data.properties.decision = { type: 'string' };
    },
  },
];
