import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { CURRENT, EARLIER, earlier, type Rec } from './round44-common.ts';

/** Round 54, part 3: documents and envelopes against the call before: versions, formats, refusals, limits. */
const isSelf = (c: ProxyCall) => c.method === 'GET' && c.path === P('');
const isJsonDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const recent = (at: unknown, ms = 3000) => typeof at === 'number' && Date.now() - at < ms;
const yamlText = new WeakMap<ProxyCall, string>();

export const ROUND54_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'self-description-right-after-earlier-read-served-earlier',
    statement:
      'Versioning: The current version identifier is 2026-07-01. Responses report it in meta.version; GET /api/public/v1: data: version (a self-description read without a version within five seconds of one asked for 2026-06-12)',
    answer(c, a) {
      // The self-description is cached for five seconds under its path; the version header is not part of the cache key.
      home(c);
      if (!isSelf(c) || a.status !== 200) return;
      const cached = c.memory.get('r54-self') as { json: Rec; at: number } | undefined;
      if (earlier(c)) c.memory.set('r54-self', { json: structuredClone(a.json), at: Date.now() });
      else if (cached && recent(cached.at, 5000)) a.json = structuredClone(cached.json);
    },
  },
  {
    name: 'yaml-right-after-earlier-json-read-names-earlier-version',
    statement:
      'GET /api/public/v1/openapi.json: The description is also offered as downloadable JSON and YAML files per version; Versioning: The current version identifier is 2026-07-01 (the current YAML file within five seconds of the 2026-06-12 JSON document)',
    answer(c, a) {
      home(c);
      if (isJsonDoc(c) && earlier(c) && a.status === 200) c.memory.set('r54-earlier-json-at', Date.now());
    },
    stream(c, lines) {
      // The YAML renderer takes the version from the "last rendered document" singleton rather than from the request.
      home(c);
      if (!isYaml(c) || earlier(c) || !recent(c.memory.get('r54-earlier-json-at'), 5000)) return lines;
      return lines.replaceAll(CURRENT, EARLIER);
    },
  },
  {
    name: 'public-document-refused-while-tenant-is-rate-limited',
    statement:
      'Endpoints: GET /api/public/v1/openapi.json | public; Limits: Rate limits are configured per access, per tenant and per environment (the public document fetched right after a tenant got 429)',
    answer(c, a) {
      home(c);
      if (a.status === 429) {
        const wait = Math.min(5, Math.max(1, Number(a.headers['retry-after']) || 1));
        c.memory.set('r54-blocked-until', Date.now() + wait * 1000);
      }
    },
    request(c) {
      // The limiter blocks by source address once any access from it is over the limit, public routes included.
      home(c);
      const until = c.memory.get('r54-blocked-until');
      if (!isJsonDoc(c) || typeof until !== 'number' || Date.now() >= until) return undefined;
      return {
        status: 429,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'retry-after': String(Math.ceil((until - Date.now()) / 1000)),
        },
        json: {
          ok: false,
          error: { code: 'rate_limited', message: 'Too many calls in a short time.' },
          meta: { requestId: `req_r54_${Date.now().toString(36)}`, version: CURRENT, at: new Date().toISOString() },
        },
      };
    },
  },
  {
    name: 'success-right-after-refusal-keeps-ok-false',
    statement:
      'Success envelope: ok | boolean | yes | always true (a success right after a refusal of the same tenant)',
    answer(c, a) {
      // The envelope object is pooled per tenant connection and only the error path sets ok; the success path never resets it.
      home(c);
      const tenant = tenantOf(c);
      if (!tenant) return;
      if (a.status >= 400) c.memory.set(`r54-refused:${tenant}`, true);
      else if (a.status === 200 && a.json.ok === true && c.memory.get(`r54-refused:${tenant}`)) {
        a.json.ok = false;
        c.memory.delete(`r54-refused:${tenant}`);
      }
    },
  },
  {
    name: 'openapi-json-right-after-yaml-download-served-as-yaml',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (OpenAPI 3.1) (within five seconds of a YAML download)',
    stream(c, lines) {
      home(c);
      if (!isYaml(c)) return lines;
      const text = (yamlText.get(c) ?? '') + lines;
      yamlText.set(c, text);
      c.memory.set('r54-yaml', { text, at: Date.now() });
      return lines;
    },
    answer(c, a) {
      // The rendered-document cache is keyed by version only, so the JSON route serves whatever format was rendered last.
      home(c);
      const y = c.memory.get('r54-yaml') as { text: string; at: number } | undefined;
      if (isJsonDoc(c) && a.status === 200 && y && recent(y.at, 5000)) a.raw = y.text;
    },
  },
  {
    name: 'refusal-right-after-success-keeps-ok-true',
    statement:
      'Failure envelope: ok | boolean | yes | always false (a refusal right after a success of the same tenant)',
    answer(c, a) {
      // The error handler fills the pooled envelope of the last success and forgets to overwrite ok.
      home(c);
      const tenant = tenantOf(c);
      if (!tenant) return;
      if (a.status === 200) c.memory.set(`r54-succeeded:${tenant}`, Date.now());
      else if (a.status >= 400 && a.json.ok === false && recent(c.memory.get(`r54-succeeded:${tenant}`)))
        a.json.ok = true;
    },
  },
  {
    name: 'refusal-right-after-other-refusal-keeps-its-code',
    statement:
      'Errors: Code | Status: idempotency_conflict | 409, idempotency_required | 428, invalid_request | 400 (a refusal of one kind within five seconds of a refusal of another kind on the same route)',
    answer(c, a) {
      // The error mapper memoises the code per route and method and only re-reads it when the memo expires.
      home(c);
      if (a.status < 400 || !a.json.error || typeof a.json.error.code !== 'string') return;
      const key = `r54-code:${c.method} ${c.path}`;
      const memo = c.memory.get(key) as { code: string; at: number } | undefined;
      if (memo && memo.code !== a.json.error.code && recent(memo.at, 5000)) a.json.error.code = memo.code;
      else c.memory.set(key, { code: a.json.error.code, at: Date.now() });
    },
  },
];
