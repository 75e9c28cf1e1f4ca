// What openapi.json documents around one operation, read as OpenAPI 3.1 reads it: the parameters that
// apply to it (its own and its path item's, the operation's own winning, §4.8.10), the response headers a
// status documents (§4.8.17), where each schema stands, and a header or query value read as the simple or
// form style would (a value on the wire is text: "5" is the integer 5 for a schema of type integer).
import type { Exchange } from '../../client/exchange.ts';
import { deref, type OpenApiLike, operationLocation, pointer } from './openapi.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** One documented parameter: its name, location, where it stands and where its schema stands (if it has one). */
export interface DocumentedParameter {
  name: string;
  in: string;
  at: string;
  schemaAt?: string;
}

/** A parameter's identity: headers by their name in any letter case (RFC 9110), the others exactly. */
const keyOf = (p: { name: string; in: string }) => `${p.in} ${p.in === 'header' ? p.name.toLowerCase() : p.name}`;

/**
 * The parameters that apply to an operation, the operation's own first (it overrides its path item's).
 * @example documentedParameters(doc, 'GET', '/api/public/v1/connectors')?.map((p) => p.name) // ['capability', 'providerId', …]
 */
export function documentedParameters(
  doc: OpenApiLike,
  method: string,
  path: string,
): DocumentedParameter[] | undefined {
  const loc = operationLocation(doc, method, path);
  if (!loc) return undefined;
  return parametersOfOwners(doc, [
    { owner: loc.op, at: loc.at },
    { owner: loc.item, at: loc.itemAt },
  ]);
}

/** The parameters of an operation and its path item (given where each stands), the first owner's winning. */
export function parametersOfOwners(doc: unknown, owners: { owner: unknown; at: string[] }[]): DocumentedParameter[] {
  const seen = new Set<string>();
  const out: DocumentedParameter[] = [];
  for (const { owner, at } of owners) {
    const list = isObject(owner) && Array.isArray(owner.parameters) ? owner.parameters : [];
    list.forEach((raw, i) => {
      const p = deref(doc, raw, [...at, 'parameters', String(i)]);
      if (!isObject(p.value) || typeof p.value.name !== 'string' || typeof p.value.in !== 'string') return;
      const param = { name: p.value.name, in: p.value.in };
      if (seen.has(keyOf(param))) return;
      seen.add(keyOf(param));
      out.push({
        ...param,
        at: pointer(...p.at),
        ...(p.value.schema !== undefined ? { schemaAt: pointer(...p.at, 'schema') } : {}),
      });
    });
  }
  return out;
}

/** One documented response header: its name as written, where it stands and where its schema stands. */
export interface DocumentedHeader {
  name: string;
  at: string;
  schemaAt?: string;
}

/**
 * The response headers an operation documents for a status (the status, else its range, else `default`),
 * references followed. Content-Type is left out: OpenAPI 3.1 §4.8.17.1 says its definition is ignored.
 * @example documentedHeaders(doc, 'GET', '/api/public/v1/providers', 429).map((h) => h.name) // ['X-Request-Id', 'Retry-After', …]
 */
export function documentedHeaders(doc: OpenApiLike, method: string, path: string, status: number): DocumentedHeader[] {
  const loc = operationLocation(doc, method, path);
  const responses = loc ? deref(doc, loc.op.responses, [...loc.at, 'responses']) : undefined;
  if (!loc || !responses || !isObject(responses.value)) return [];
  const codes = Object.keys(responses.value);
  const key = [String(status), `${String(status)[0]}XX`, 'default']
    .map((k) => codes.find((c) => c.toUpperCase() === k.toUpperCase()))
    .find((k) => k !== undefined);
  if (key === undefined) return [];
  return headersOfResponse(doc, responses.value[key], [...responses.at, key]);
}

/**
 * The headers one response object documents (given where it stands), references followed; Content-Type left
 * out (OpenAPI 3.1 §4.8.17.1: its definition is ignored).
 */
export function headersOfResponse(doc: unknown, raw: unknown, at: string[]): DocumentedHeader[] {
  const response = deref(doc, raw, at);
  const headers = isObject(response.value)
    ? deref(doc, response.value.headers, [...response.at, 'headers'])
    : undefined;
  if (!headers || !isObject(headers.value)) return [];
  return Object.entries(headers.value).flatMap(([name, value]) => {
    if (name.toLowerCase() === 'content-type') return [];
    const h = deref(doc, value, [...headers.at, name]);
    if (!isObject(h.value)) return [];
    return [
      {
        name,
        at: pointer(...h.at),
        ...(h.value.schema !== undefined ? { schemaAt: pointer(...h.at, 'schema') } : {}),
      },
    ];
  });
}

/** A header of a record in any letter case. */
export const headerValue = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

/**
 * The value a request sent for a parameter: a header's text, a query parameter's one value or (repeated,
 * the form style's explode) its values; undefined when it was not sent (path and cookie values are not read).
 * @example sentValue(ex, { name: 'category', in: 'query' }) // 'pos'
 */
export function sentValue(ex: Exchange, p: { name: string; in: string }): string | string[] | undefined {
  if (p.in === 'header') return headerValue(ex.requestHeaders, p.name);
  if (p.in !== 'query') return undefined;
  let values: string[];
  try {
    values = new URL(ex.url).searchParams.getAll(p.name);
  } catch {
    return undefined;
  }
  return values.length === 0 ? undefined : values.length === 1 ? values[0] : values;
}

const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const scalar = (text: string): unknown[] => {
  const out: unknown[] = [text];
  if (NUMBER.test(text.trim())) out.push(Number(text.trim()));
  if (text === 'true' || text === 'false') out.push(text === 'true');
  return out;
};
const typed = (text: string): unknown => scalar(text).at(-1);

/**
 * What a value on the wire may stand for under the simple (headers) or form (query) style: the text, a number
 * or boolean it spells, or the list its commas (or repetitions) make. A schema that accepts any of them
 * accepts the value; objects (key,value pairs) are not read.
 * @example styleCandidates('5') // ['5', 5, ['5'], [5]]
 */
export function styleCandidates(value: string | string[]): unknown[] {
  if (Array.isArray(value)) return [value, value.map(typed)];
  const parts = value.split(',').map((s) => s.trim());
  return [...scalar(value), parts, parts.map(typed)];
}
