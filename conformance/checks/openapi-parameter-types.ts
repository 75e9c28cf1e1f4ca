// openapi.json types the interface's query parameters as the interface does: the stream's cursor ("integer,
// minimum 0") and the audit log's limit ("number of entries") as numbers, the catalog filters as strings. A
// client generated from the description ("the endpoint reference is generated from the published
// description") sends what the document types: a number typed as a string, or a filter typed as a number,
// sends it astray. Types only: the bounds are openapi.limits-not-narrower's and -wider's.
import { z } from 'zod';
import type { RouteDef } from '../../simulator/contract/route-def.ts';
import { interfaceQuery, interfaceRoutes } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import { deref, type OpenApiLike, operationLocation, requireOpenApi } from './support/openapi.ts';
import { schemasAt } from './support/openapi-schema-values.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The JSON types the interface gives a route's query parameter ('integer', 'string', ...), from the contract. */
function contractType(route: RouteDef, name: string): string | undefined {
  if (!route.query) return undefined;
  const props = z.toJSONSchema(route.query, { io: 'input', unrepresentable: 'any' }).properties ?? {};
  const type = (props[name] as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' ? type : undefined;
}

/** The types a documented schema states (its `type`, or its alternatives'); empty when it states none. */
function statedTypes(doc: OpenApiLike, schema: unknown, depth = 0): Set<string> {
  const s = deref(doc, schema, []).value;
  if (!isObject(s) || depth > 4) return new Set();
  if (typeof s.type === 'string') return new Set([s.type]);
  if (Array.isArray(s.type)) return new Set(s.type.filter((t): t is string => typeof t === 'string'));
  const branches = [s.anyOf, s.oneOf].flatMap((b) => (Array.isArray(b) ? b : []));
  const out = new Set<string>();
  for (const b of branches) for (const t of statedTypes(doc, b, depth + 1)) out.add(t);
  // One branch without a type admits anything: the schema as a whole states none.
  return branches.some((b) => statedTypes(doc, b, depth + 1).size === 0) ? new Set() : out;
}

/** Documented types that admit the interface's: a number may be documented integer or number. */
const ADMITS: Record<string, string[]> = { integer: ['integer', 'number'], number: ['number', 'integer'] };

/**
 * The interface's query parameters whose documented schema states a type that admits none of the values the
 * interface gives them (a parameter or schema stating no type is not judged).
 * @example parameterTypeProblems(doc) // ['GET /api/public/v1/audit-log: query limit typed string (the interface: a number)']
 */
export function parameterTypeProblems(doc: OpenApiLike): string[] {
  const out: string[] = [];
  for (const route of interfaceRoutes().filter((r) => (r.kind ?? 'json') !== 'document')) {
    const loc = operationLocation(doc, route.method, route.path);
    if (!loc) continue;
    const params = [loc.op, loc.item]
      .flatMap((owner) => {
        const list = (owner as { parameters?: unknown }).parameters;
        return Array.isArray(list) ? list : [];
      })
      .map((p) => deref(doc, p, []).value)
      .filter((p): p is Json => isObject(p) && p.in === 'query' && typeof p.name === 'string');
    for (const name of interfaceQuery(route)) {
      const wanted = contractType(route, name);
      const param = params.find((p) => p.name === name);
      if (!wanted || !param) continue;
      // OpenAPI 3.1 puts the type in `schema`, or under `content` for a serialised parameter.
      const content = isObject(param.content) ? Object.values(param.content)[0] : undefined;
      const schema = param.schema ?? (isObject(content) ? content.schema : undefined);
      const stated = statedTypes(doc, schema);
      if (stated.size === 0) continue;
      const admitted = ADMITS[wanted] ?? [wanted];
      if (!admitted.some((t) => stated.has(t)))
        out.push(
          `${route.method} ${route.path}: query ${name} typed ${[...stated].join(' | ')} (the interface: ${wanted === 'integer' ? 'a number' : `a ${wanted}`})`,
        );
    }
  }
  return out;
}

/**
 * The request body fields the interface lists that the document marks `readOnly` (OpenAPI: "not sent as part of
 * the request"): a client generated from it leaves out a field the interface asks for.
 * @example readOnlyBodyFields(doc) // ['POST /api/public/v1/connections: scopeLabel']
 */
export function readOnlyBodyFields(doc: OpenApiLike): string[] {
  const out: string[] = [];
  for (const route of interfaceRoutes().filter((r) => r.body && !r.fieldsNotShown)) {
    const loc = operationLocation(doc, route.method, route.path);
    const schema = loc ? jsonBodySchema(doc, loc.op) : undefined;
    if (schema === undefined) continue;
    const fields = Object.keys((route.body as unknown as { shape?: Record<string, unknown> }).shape ?? {});
    for (const f of fields)
      if (schemasAt(doc, schema, [f]).some((s) => s.readOnly === true)) out.push(`${route.method} ${route.path}: ${f}`);
  }
  return out;
}

/** The documented JSON body schema of an operation, if it documents one. */
function jsonBodySchema(doc: OpenApiLike, op: unknown): unknown {
  const body = deref(doc, (op as { requestBody?: unknown }).requestBody, []).value;
  const content = isObject(body) && isObject(body.content) ? body.content : {};
  const type = Object.keys(content).find((t) => /^application\/(?:[\w.+-]+\+)?json/.test(t));
  return type && isObject(content[type]) ? content[type].schema : undefined;
}

/** What the documented schemas at `path` state as types, together; empty when none states one. */
function typesAt(doc: OpenApiLike, schema: unknown, path: string[]): Set<string> {
  const out = new Set<string>();
  for (const s of schemasAt(doc, schema, path)) for (const t of statedTypes(doc, s)) out.add(t);
  return out;
}

/**
 * The request body fields the interface lists (the sample calls' too: the registration's url and events) that
 * the document types so none of the interface's values fit (a list typed as a string, a list of numbers), or
 * documents as a query parameter or header instead of in the body.
 * @example bodyFieldProblems(doc) // ['POST /api/public/v1/webhooks: body events typed string (the interface: an array)']
 */
export function bodyFieldProblems(doc: OpenApiLike): string[] {
  const out: string[] = [];
  for (const route of interfaceRoutes().filter((r) => r.body && (r.kind ?? 'json') === 'json')) {
    const loc = operationLocation(doc, route.method, route.path);
    const schema = loc ? jsonBodySchema(doc, loc.op) : undefined;
    if (!loc || schema === undefined || !route.body) continue;
    // Field by field: the body's own schema is a reference to its named definition.
    const shape = (route.body as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
    const fields = Object.fromEntries(
      Object.entries(shape).map(([k, v]) => [k, z.toJSONSchema(v, { io: 'input', unrepresentable: 'any' })]),
    );
    const params = [loc.op, loc.item].flatMap((owner) => {
      const list = (owner as { parameters?: unknown }).parameters;
      return (Array.isArray(list) ? list : []).map((p) => deref(doc, p, []).value).filter(isObject);
    });
    const at = `${route.method} ${route.path}`;
    for (const [name, field] of Object.entries(fields)) {
      if (schemasAt(doc, schema, [name]).length === 0) {
        const elsewhere = params.find((p) => p.name === name && (p.in === 'query' || p.in === 'header'));
        if (elsewhere)
          out.push(`${at}: ${name} documented as a ${elsewhere.in} parameter (the interface: a body field)`);
        continue;
      }
      const wanted = (field as { type?: unknown; items?: { type?: unknown } }) ?? {};
      for (const [path, type] of [
        [[name], wanted.type],
        [[name, '[]'], wanted.type === 'array' ? wanted.items?.type : undefined],
      ] as [string[], unknown][]) {
        if (typeof type !== 'string') continue;
        const stated = typesAt(doc, schema, path);
        if (stated.size === 0 || (ADMITS[type] ?? [type]).some((t) => stated.has(t))) continue;
        const what = path.length > 1 ? `${name} items` : name;
        out.push(
          `${at}: body ${what} typed ${[...stated].join(' | ')} (the interface: ${type === 'array' ? 'an array' : `a ${type}`})`,
        );
      }
    }
  }
  return out;
}

export const parameterTypes = defineCheck({
  name: 'openapi.parameter-types',
  title:
    "openapi.json types each query parameter and body field the interface names as the interface does (cursor and the audit log's limit numbers, the catalog filters strings, capabilities and events lists), keeps body fields in the body, and marks none readOnly",
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const wrong = parameterTypeProblems(doc);
    ctx.expect.that(wrong.length === 0, {
      expected:
        'every query parameter of the interface documented with a type that admits its values ("cursor: integer, minimum 0", "limit (number of entries)", the filters strings)',
      observed: `typed otherwise: ${listed(wrong)}`,
      exchange: ex,
    });
    const body = bodyFieldProblems(doc);
    ctx.expect.that(body.length === 0, {
      expected:
        "every body field the interface lists (the sample calls' too) documented in the request body with a type that admits its values",
      observed: listed(body),
      exchange: ex,
    });
    const readOnly = readOnlyBodyFields(doc);
    ctx.expect.that(readOnly.length === 0, {
      expected: 'no body field the interface lists is documented readOnly (OpenAPI: not sent in a request)',
      observed: `readOnly: ${listed(readOnly)}`,
      exchange: ex,
    });
  },
});
