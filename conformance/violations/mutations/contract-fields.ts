import { z } from 'zod';
import type { RouteDef } from '../../../simulator/contract/route-def.ts';
import { routesFor } from '../../../simulator/contract/route-table.ts';
import { must } from '../../runner/invariant.ts';
import type { JsonPath } from './json-path.ts';

type Json = {
  type?: string;
  properties?: Record<string, Json>;
  required?: string[];
  items?: Json;
  $ref?: string;
  $defs?: Record<string, Json>;
  enum?: unknown[];
  format?: string;
  pattern?: string;
};

/** One response field the contract constrains, and how (for the out-of-range operator). */
export interface ConstrainedField {
  route: RouteDef;
  /** From the envelope's root, e.g. ['data', 'connections', '*', 'environment']. */
  path: JsonPath;
  required: boolean;
  type?: string;
  /** A value the contract's constraint excludes, when it has one beyond the type. */
  outOfRange?: unknown;
}

/** The interface's JSON routes whose answer fields the interface shows (not additions, not "fields not shown"). */
export const judgedRoutes = () =>
  routesFor().filter((r) => !r.addition && !r.fieldsNotShown && r.data && (r.kind ?? 'json') === 'json');

function outOfRange(node: Json): unknown {
  if (node.enum) return 'outside-the-enumeration';
  if (node.format === 'date-time') return 'not a date-time';
  if (node.pattern) return 'breaks the pattern !';
  if (node.type === 'integer') return 1.5;
  return undefined;
}

/**
 * Every field of every judged route's data, from the contract's schemas (walked as JSON Schema).
 * @example constrainedFields().filter((f) => f.route.id === 'createConnection').map((f) => f.path.join('.'))
 */
export function constrainedFields(): ConstrainedField[] {
  const out: ConstrainedField[] = [];
  for (const route of judgedRoutes()) {
    const root = z.toJSONSchema(must(route.data, 'judgedRoutes keeps routes with data only'), {
      io: 'output',
      unrepresentable: 'any',
    }) as Json;
    const deref = (n: Json): Json => (n.$ref ? (root.$defs?.[n.$ref.replace('#/$defs/', '')] ?? n) : n);
    const walk = (node: Json, path: string[], depth: number) => {
      const n = deref(node);
      if (n.type === 'array' && n.items && depth < 4) walk(n.items, [...path, '*'], depth + 1);
      for (const [key, child] of Object.entries(n.properties ?? {})) {
        const c = deref(child);
        const range = outOfRange(c);
        out.push({
          route,
          path: [...path, key],
          required: (n.required ?? []).includes(key),
          ...(c.type ? { type: c.type } : {}),
          ...(range !== undefined ? { outOfRange: range } : {}),
        });
        if (depth < 4) walk(c, [...path, key], depth + 1);
      }
    };
    walk(root, ['data'], 0);
  }
  return out;
}
