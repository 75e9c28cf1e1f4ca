import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, LISTS, P } from './proxy-helpers.ts';
import { bodyOf, failure } from './round6-support.ts';

/**
 * Round 11 of the unseen violations, part 3: what the deployment does with what it is sent — a label
 * trimmed before its length is checked, an unknown field that crashes the check, a filter value read
 * as a LIKE pattern, a huge cursor, a default at the alternate address, a JSON body refused for its
 * charset, tokens compared by their prefix, and a list given as one comma-joined string.
 */
type Rec = Record<string, any>;
const CHECK_FIELDS = new Set(['connectorId', 'capability', 'environment']);
const LIKE_FILTERED = new Set([P('/providers'), P('/connectors')]);
/** Per call: the LIKE pattern the deployment applies instead of the exact category. */
const likeOf = new WeakMap<ProxyCall, RegExp>();
const likeToRegExp = (pattern: string) =>
  new RegExp(
    `^${[...pattern].map((ch) => (ch === '%' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`,
    'i',
  );
const bearer = (c: ProxyCall) => /^Bearer (.+)$/.exec(c.headers.authorization ?? '')?.[1];
const PREFIX = 16;

export const ROUND11_INPUTS: UnseenViolation[] = [
  {
    name: 'scope-label-trimmed-before-length-check',
    statement:
      'Limits: scopeLabel | length 2 to 120 (of the label as sent: 121 characters ending in a space are too many; Connection: scopeLabel as given)',
    request(c) {
      // The DTO strips surrounding whitespace before validating and storing the label.
      const body = bodyOf(c);
      if (!isCreate(c) || !body || typeof body.scopeLabel !== 'string') return undefined;
      const trimmed = body.scopeLabel.trim();
      if (trimmed !== body.scopeLabel) c.body = { ...body, scopeLabel: trimmed };
      return undefined;
    },
  },
  {
    name: 'check-unknown-field-500',
    statement:
      'Errors: internal | 500 | fault on the service side (a capability check with a field beyond connectorId, capability, environment is refused 400 or ignored, not a fault)',
    request(c) {
      // The strict decoder throws on unknown members and the exception escapes the validation layer.
      const body = bodyOf(c);
      if (c.method !== 'POST' || c.path !== P('/capabilities') || !body || !c.headers.authorization) return undefined;
      if (Object.keys(body).every((k) => CHECK_FIELDS.has(k))) return undefined;
      return failure(
        c,
        500,
        'internal',
        'A fault on the service side.',
        'Note the request identifier and inform support.',
      );
    },
  },
  {
    name: 'category-filter-as-like-pattern',
    statement:
      'GET /api/public/v1/providers, /connectors: category | restricts to one category (the value given, not a pattern: _ and % are characters)',
    request(c) {
      // The repository builds `category LIKE ?` with the raw value, so _ and % act as wildcards.
      const category = c.search.get('category');
      if (c.method !== 'GET' || !LIKE_FILTERED.has(c.path) || !category || !/[%_]/.test(category)) return undefined;
      likeOf.set(c, likeToRegExp(category));
      c.search.delete('category');
      return undefined;
    },
    answer(c, a) {
      const like = likeOf.get(c);
      const field = LISTS[c.path];
      const list = field ? a.json.data?.[field] : undefined;
      if (!like || a.status !== 200 || !field || !Array.isArray(list)) return;
      const kept = (list as Rec[]).filter((x) => typeof x.category === 'string' && like.test(x.category));
      a.json.data[field] = kept;
      a.json.data.count = kept.length;
    },
  },
  {
    name: 'cursor-beyond-safe-integer-500',
    statement:
      'GET /api/public/v1/stream: cursor | query | integer, minimum 0 (any integer from 0 up; Errors: internal 500 is a fault, not a verdict on input)',
    request(c) {
      // The cursor is parsed into a 64-bit column type; past 2^53 the conversion throws.
      const cursor = c.search.get('cursor');
      if (c.method !== 'GET' || c.path !== P('/stream') || !cursor || !/^\d+$/.test(cursor)) return undefined;
      if (Number(cursor) <= Number.MAX_SAFE_INTEGER) return undefined;
      return failure(c, 500, 'internal', 'A fault on the service side.');
    },
  },
  {
    name: 'alt-creation-environment-defaulted',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required (environment too — under {alt_base_url}, the same interface)',
    request(c) {
      // The alternate address still runs a build in which environment was optional with a sandbox default.
      const body = bodyOf(c);
      if (c.base !== 'alt' || !isCreate(c) || !body || 'environment' in body) return undefined;
      c.body = { ...body, environment: 'sandbox' };
      return undefined;
    },
  },
  {
    name: 'json-with-charset-refused',
    statement:
      'POST endpoints: Body (JSON) (application/json; charset=utf-8 is JSON too; Errors: invalid_request is for an unsuitable request)',
    request(c) {
      // The body parser compares the Content-Type header with "application/json" as a whole string.
      const type = c.headers['content-type'] ?? '';
      if (c.method !== 'POST' || !/^application\/json\s*;/i.test(type)) return undefined;
      return failure(
        c,
        400,
        'invalid_request',
        'The request is incomplete or unsuitable.',
        'The body must be JSON (Content-Type: application/json).',
      );
    },
  },
  {
    name: 'token-compared-by-prefix',
    statement:
      'Authentication: Authorization | Bearer token obtained through an OAuth flow (Errors: unauthorized | 401 — a token that was never issued is not signed in)',
    request(c) {
      // Tokens are looked up by an indexed prefix column, and the rest of the token is never compared.
      const token = bearer(c);
      const valid = (c.memory.get('valid-tokens') as Set<string> | undefined) ?? new Set<string>();
      c.memory.set('valid-tokens', valid);
      if (!token || valid.has(token) || token.length < PREFIX) return undefined;
      const match = [...valid].find((t) => t.slice(0, PREFIX) === token.slice(0, PREFIX));
      if (match) c.headers.authorization = `Bearer ${match}`;
      return undefined;
    },
    answer(c, a) {
      const token = bearer(c);
      if (token && a.status !== 401) (c.memory.get('valid-tokens') as Set<string> | undefined)?.add(token);
    },
  },
  {
    name: 'capabilities-comma-string-split',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items (Errors: invalid_request — wrong data type: a string is not an array)',
    request(c) {
      // A lenient binder (written for query strings) splits a string on commas into a list.
      const body = bodyOf(c);
      if (!isCreate(c) || !body || typeof body.capabilities !== 'string') return undefined;
      c.body = { ...body, capabilities: body.capabilities.split(',').map((s) => s.trim()) };
      return undefined;
    },
  },
];
