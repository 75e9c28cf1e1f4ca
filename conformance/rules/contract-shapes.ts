import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { z } from 'zod';
import { DATE_TIME_PATTERN } from '../../simulator/contract/date-time.ts';
import type { RouteDef } from '../../simulator/contract/route-def.ts';
import { KIT_AJV_OPTIONS } from './ajv-options.ts';

const addFormatsModuleTyped = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
/** ajv's formats, with `date-time` as RFC 3339 writes it (DATE_TIME_PATTERN): the interface's "string, date-time". */
const addFormats = (ajv: Ajv2020) => addFormatsModuleTyped(ajv).addFormat('date-time', new RegExp(DATE_TIME_PATTERN));

/**
 * The JSON Schema of a contract schema, read as the interface words it: further fields are allowed
 * unless the interface says the field list is the schema, and a date-time is any RFC 3339 date-time
 * (an offset as legal as Z), so no deployment fails for a legal choice.
 */
function lenient(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lenient);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'additionalProperties' && v === false) continue;
    if (k === 'pattern' && (node as { format?: unknown }).format === 'date-time') continue;
    out[k] = lenient(v);
  }
  return out;
}

let ajv: Ajv2020 | undefined;
let firstErrorAjv: Ajv2020 | undefined;
const cache = new Map<string, ValidateFunction | undefined>();
const firstErrorCache = new Map<string, ValidateFunction | undefined>();

/** How many items of each array the all-errors pass reads (it only has to name the first few problems). */
const ITEMS_DESCRIBED = 50;

/** `value` with every array cut to its first ITEMS_DESCRIBED items (a copy; objects kept as they are). */
function firstItems(value: unknown, depth = 0): unknown {
  if (!value || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return value.slice(0, ITEMS_DESCRIBED).map((v) => firstItems(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, firstItems(v, depth + 1)]));
}

/** The same schema compiled to stop at its first error: deciding validity costs no memory per error. */
function firstErrorValidator(route: RouteDef): ValidateFunction | undefined {
  if (!route.data || route.fieldsNotShown || (route.kind ?? 'json') !== 'json') return undefined;
  if (!firstErrorCache.has(route.id)) {
    firstErrorAjv ??= addFormats(new Ajv2020({ ...KIT_AJV_OPTIONS, strict: false, allErrors: false }));
    const schema = lenient(z.toJSONSchema(route.data, { io: 'output', unrepresentable: 'any' })) as object;
    delete (schema as { $schema?: unknown }).$schema;
    firstErrorCache.set(route.id, firstErrorAjv.compile(schema));
  }
  return firstErrorCache.get(route.id);
}

/**
 * A validator of a route's success `data` from the contract (undefined where the interface shows no
 * fields or the route has no JSON data).
 * @example dataValidator(ROUTE_BY_ID.get('listConnections')!)?.({ tenant: 't', count: 0, connections: [] }) // true
 */
export function dataValidator(route: RouteDef): ValidateFunction | undefined {
  if (!route.data || route.fieldsNotShown || (route.kind ?? 'json') !== 'json') return undefined;
  if (!cache.has(route.id)) {
    ajv ??= addFormats(new Ajv2020({ ...KIT_AJV_OPTIONS, strict: false, allErrors: true }));
    const schema = lenient(z.toJSONSchema(route.data, { io: 'output', unrepresentable: 'any' })) as object;
    delete (schema as { $schema?: unknown }).$schema;
    cache.set(route.id, ajv.compile(schema));
  }
  return cache.get(route.id);
}

/** What the contract's data schema finds wrong in a 200 answer's data, or undefined. */
export function dataProblems(route: RouteDef, data: unknown): string | undefined {
  // Validity is decided at the first error; the all-errors pass then reads only the first items of each array:
  // 600,000 `{}` routes made it collect millions of errors (+366 MB).
  const first = firstErrorValidator(route);
  if (!first || first(data)) return undefined;
  const v = dataValidator(route);
  const all = v && !v(firstItems(data)) ? (v.errors ?? []) : (first.errors ?? []);
  return all
    .slice(0, 4)
    .map((e) => `data${e.instancePath} ${e.message}`)
    .join('; ');
}
