import { canonicalJson, sortKeys } from '../contract/canonical-json.ts';
import type { RouteDef } from '../contract/route-def.ts';
import type { RequestContext } from '../core/context.ts';
import { bodyHash, textHash } from './observation.ts';

const decoder = new TextDecoder();
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * What the call asks for, as a hash: its query (sorted) and its body's canonical JSON, so that a retry
 * whose body was serialised anew is the same content (the service compares the same canonical form).
 * @example contentHash(ctx) === contentHash(ctxOfTheSameBodyWithOtherKeyOrder)
 */
export function contentHash(ctx: RequestContext): number {
  const q = ctx.req.query;
  const known = knownQuery(ctx.route);
  let query = '';
  // Only the parameters the route takes: a cache-buster (`?_=1712…`, `?nocache=…`) the service ignores
  // changes nothing the call asks for, and must not make each retry look like a new call.
  for (const k in q) if (!known || known.has(k)) query += `${k}=${String(q[k])}&`;
  if (query) query = `?${query.split('&').sort().join('&')}`;
  // The body as sent, not ctx.body: the schema's defaults and coercions must not make a retry's
  // content differ from its first attempt's. The validate step hands it over as it parsed it
  // (ctx.bodyNote); a call answered before that (a fault, a refusal) is parsed here.
  const raw = ctx.req.body;
  let body = 0;
  if (ctx.bodyNote !== undefined) body = ctx.bodyNote;
  else if (raw?.length)
    try {
      body = canonicalHash(JSON.parse(decoder.decode(raw)));
    } catch {
      body = bodyHash(raw);
    }
  return query ? textHash(query, body || FNV_OFFSET) : body;
}

const knownByRoute = new WeakMap<RouteDef, ReadonlySet<string>>();

/** The query parameters a matched route takes (none for a route without a query); undefined: no route matched. */
function knownQuery(route: RouteDef | undefined): ReadonlySet<string> | undefined {
  if (!route) return undefined;
  let known = knownByRoute.get(route);
  if (!known) {
    known = new Set(Object.keys((route.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {}));
    knownByRoute.set(route, known);
  }
  return known;
}

/**
 * `textHash(canonicalJson(value))` without writing the canonical text: the same characters are fed to
 * FNV-1a as they would be written, so the hash is the same number (a property test compares them) and
 * a call's body costs no text of its own. Every call of a known client is hashed, so this is hot.
 * Throws where canonicalJson throws.
 * @example canonicalHash({ b: 1, a: 'x' }) === textHash('{"a":"x","b":1}')
 */
export function canonicalHash(value: unknown): number {
  return hashValue(value, FNV_OFFSET) >>> 0 || 1;
}

function feed(text: string, h: number): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** A string as JSON.stringify writes it: quoted as it is unless a character needs an escape. */
function hashString(s: string, h: number): number {
  let x = Math.imul(h ^ 0x22, FNV_PRIME);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Control characters, quote, backslash and surrogates (a lone one is escaped): the slow way.
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return feed(JSON.stringify(s), h);
    x = Math.imul(x ^ c, FNV_PRIME);
  }
  return Math.imul(x ^ 0x22, FNV_PRIME);
}

function hashValue(value: unknown, h: number): number {
  if (value === null) return feed('null', h);
  switch (typeof value) {
    case 'string':
      return hashString(value, h);
    case 'boolean':
      return feed(value ? 'true' : 'false', h);
    case 'object': {
      // What canonicalJson does with a value that has its own JSON form: rare, so the text itself.
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return feed(canonicalJson(value), h);
      if (Array.isArray(value)) {
        h = Math.imul(h ^ 0x5b, FNV_PRIME); // [
        for (let i = 0; i < value.length; i++) {
          const v: unknown = value[i];
          if (i > 0) h = Math.imul(h ^ 0x2c, FNV_PRIME); // ,
          h = v === undefined || typeof v === 'function' ? feed('null', h) : hashValue(v, h);
        }
        return Math.imul(h ^ 0x5d, FNV_PRIME); // ]
      }
      const obj = value as Record<string, unknown>;
      h = Math.imul(h ^ 0x7b, FNV_PRIME); // {
      let first = true;
      for (const key of sortKeys(Object.keys(obj))) {
        const v = obj[key];
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
        if (!first) h = Math.imul(h ^ 0x2c, FNV_PRIME);
        first = false;
        h = Math.imul(hashString(key, h) ^ 0x3a, FNV_PRIME); // :
        h = hashValue(v, h);
      }
      return Math.imul(h ^ 0x7d, FNV_PRIME); // }
    }
    default:
      // Numbers as JSON.stringify writes them; NaN, Infinity, bigint and the rest throw as canonicalJson does.
      return feed(canonicalJson(value), h);
  }
}
