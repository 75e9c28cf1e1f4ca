import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { EARLIER, earlier, type Rec } from './round44-common.ts';

/** Round 49, part 3: what the OpenAPI document, the YAML file and the self-description say of parameters and bodies. */
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isSelf = (c: ProxyCall, a: ProxyAnswer) => c.method === 'GET' && c.path === P('') && Boolean(a.json.data);
const schemas = (a: ProxyAnswer) => ((a.json as Rec).components?.schemas ?? {}) as Rec;
const op = (a: ProxyAnswer, path: string, method: string) =>
  (a.json as Rec).paths?.[P(path)]?.[method] as Rec | undefined;
/** Stream calls whose YAML has already had the check's deprecation mark inserted. */
const marked = new WeakSet<ProxyCall>();

export const ROUND49_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-check-request-requires-environment',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | default sandbox (the document’s CapabilityCheckRequest)',
    answer(c, a) {
      // The generator marks every field with a default as required, because the validator fills it in.
      home(c);
      const s = schemas(a).CapabilityCheckRequest as Rec | undefined;
      if (isDoc(c, a) && Array.isArray(s?.required) && !s.required.includes('environment'))
        s.required.push('environment');
    },
  },
  {
    name: 'self-description-idempotency-header-x-prefixed',
    statement:
      'Authentication: Idempotency-Key | on modifying calls: key against double effects (the self-description’s idempotency object)',
    answer(c, a) {
      // The self-description copies the header name from the old gateway configuration, which used an X- prefix.
      home(c);
      const idem = a.json.data?.idempotency as Rec | undefined;
      if (isSelf(c, a) && idem && typeof idem.header === 'string') idem.header = 'X-Idempotency-Key';
    },
  },
  {
    name: 'alt-openapi-create-connection-request-body-omitted',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required (the document served under {alt_base_url})',
    answer(c, a) {
      // The alternate address serves a document trimmed for its size limit, which drops request bodies of keyed routes.
      home(c);
      const post = op(a, '/connections', 'post');
      if (c.base === 'alt' && isDoc(c, a) && post) delete post.requestBody;
    },
  },
  {
    name: 'current-yaml-check-route-deprecated',
    statement:
      'Versioning: No change that requires adaptation of clients exists in the current version (the current YAML file marks the check deprecated)',
    stream(c, lines) {
      // A stale deprecation flag from a planned rename leaked into the YAML build of the current version.
      home(c);
      if (c.method !== 'GET' || c.path !== P('/openapi.yaml') || earlier(c) || marked.has(c)) return lines;
      return lines.replace(/^( *)operationId: checkCapability$/m, (line, indent: string) => {
        marked.add(c);
        return `${line}\n${indent}deprecated: true`;
      });
    },
  },
  {
    name: 'earlier-json-document-check-request-lacks-capability',
    statement:
      'POST /api/public/v1/capabilities: capability | string | yes | length 2 to 120 (the 2026-06-12 JSON file)',
    answer(c, a) {
      // The 2026-06-12 document was regenerated from a branch where capability was optional (defaulted to all).
      home(c);
      const s = schemas(a).CapabilityCheckRequest as Rec | undefined;
      if (isDoc(c, a) && earlier(c) && Array.isArray(s?.required))
        s.required = (s.required as string[]).filter((f) => f !== 'capability');
    },
  },
  {
    name: 'openapi-stream-success-content-json',
    statement:
      'GET /api/public/v1/stream: Response: content type text/event-stream (the document’s 200 response of the stream)',
    answer(c, a) {
      // The generator's default response content type wins for routes whose schema is a plain string.
      home(c);
      const ok = op(a, '/stream', 'get')?.responses?.['200'] as Rec | undefined;
      if (isDoc(c, a) && ok?.content?.['text/event-stream'])
        ok.content = { 'application/json': ok.content['text/event-stream'] };
    },
  },
  {
    name: 'alt-self-description-version-earlier',
    statement:
      'GET /api/public/v1: data: version (string); Versioning: the current version identifier is 2026-07-01 (the self-description under {alt_base_url})',
    answer(c, a) {
      // The alternate address's self-description is built once at start-up from the previous release's manifest.
      home(c);
      if (c.base === 'alt' && isSelf(c, a) && !earlier(c) && typeof a.json.data.version === 'string')
        a.json.data.version = EARLIER;
    },
  },
];
