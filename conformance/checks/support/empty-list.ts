// A list answer the interface allows though a run may never see it: the same answer with its list empty
// (count 0), as for a tenant without connections or a filter that matches nothing. A document that gives
// a list `minItems: 1` or its count `minimum: 1` describes away an answer the interface has.
import { z } from 'zod';
import type { RouteDef } from '../../../simulator/contract/route-def.ts';

/** The list field of a route's data (`count` beside one array), from the contract; undefined: not a list. */
export function listFieldOf(route: RouteDef): string | undefined {
  if (!route.data || route.fieldsNotShown || route.addition) return undefined;
  const shape = (route.data as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  if (!shape.count) return undefined;
  const arrays = Object.entries(shape).filter(([, v]) => v instanceof z.ZodArray);
  return arrays.length === 1 ? arrays[0]?.[0] : undefined;
}

/**
 * The answer with its list emptied and its count 0, or undefined when it is no list answer.
 * @example emptiedList(listConnections, { ok: true, data: { tenant: 't', count: 1, connections: [c] }, meta })
 * // { ok: true, data: { tenant: 't', count: 0, connections: [] }, meta }
 */
export function emptiedList(route: RouteDef, json: unknown): unknown {
  const field = listFieldOf(route);
  const data = (json as { data?: unknown } | undefined)?.data;
  if (!field || !data || typeof data !== 'object' || !Array.isArray((data as Record<string, unknown>)[field]))
    return undefined;
  return { ...(json as object), data: { ...data, [field]: [], count: 0 } };
}
