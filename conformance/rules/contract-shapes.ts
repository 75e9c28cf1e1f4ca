import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { z } from 'zod';
import type { RouteDef } from '../../simulator/contract/route-def.ts';
import { KIT_AJV_OPTIONS } from './ajv-options.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

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
const cache = new Map<string, ValidateFunction | undefined>();

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
  const v = dataValidator(route);
  if (!v || v(data)) return undefined;
  return (v.errors ?? [])
    .slice(0, 4)
    .map((e) => `data${e.instancePath} ${e.message}`)
    .join('; ');
}
