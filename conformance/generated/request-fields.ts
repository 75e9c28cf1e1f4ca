import type { z } from 'zod';
import { IdempotencyKey } from '../../simulator/contract/idempotency.ts';
import type { RouteDef } from '../../simulator/contract/route-def.ts';
import { interfaceRoutes } from '../rules/interface-routes.ts';
import { must } from '../runner/invariant.ts';

/** What the contract constrains about one request value. */
export type FieldType =
  | { type: 'string'; min?: number; max?: number; pattern?: RegExp }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'integer'; min?: number }
  | { type: 'array'; min?: number; max?: number; item: FieldType }
  | { type: 'other' };

/** One request value of an operation: a body field, a query parameter or a header. */
export interface RequestField {
  in: 'body' | 'query' | 'header';
  name: string;
  required: boolean;
  type: FieldType;
}

/** An interface operation with the request values the contract gives it. */
export interface Operation {
  route: RouteDef;
  fields: RequestField[];
}

// zod 4 keeps a schema's definition in `def` and the bounds of strings and arrays in `def.checks`.
interface Def {
  type: string;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
  shape?: Record<string, z.ZodType>;
}
const defOf = (s: z.ZodType) => (s as unknown as { def: Def }).def;
const checksOf = (d: Def) => (d.checks ?? []).map((c) => c._zod.def);

/**
 * The constraints of one zod schema as the generator needs them (unknown kinds are 'other', which
 * only get the missing, null and wrong-type probes).
 * @example fieldType(z.string().min(2).max(120)) // { type: 'string', min: 2, max: 120 }
 */
export function fieldType(schema: z.ZodType): FieldType {
  const d = defOf(schema);
  const checks = checksOf(d);
  const num = (check: string, key: string) => {
    const v = checks.find((c) => c.check === check)?.[key];
    return typeof v === 'number' ? v : undefined;
  };
  const bounds = () => {
    const min = num('min_length', 'minimum');
    const max = num('max_length', 'maximum');
    return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  };
  switch (d.type) {
    case 'optional':
    case 'default':
    case 'nullable':
      return fieldType(must(d.innerType, `a zod ${d.type} wraps an inner type`));
    case 'string': {
      const pattern = checks.find((c) => c.format === 'regex')?.pattern;
      return { type: 'string', ...bounds(), ...(pattern instanceof RegExp ? { pattern } : {}) };
    }
    case 'enum':
      return { type: 'enum', values: Object.values(d.entries ?? {}) };
    case 'number': {
      const integer = checks.some((c) => c.format === 'safeint' || c.format === 'int32');
      const min = num('greater_than', 'value');
      return integer ? { type: 'integer', ...(min !== undefined ? { min } : {}) } : { type: 'other' };
    }
    case 'array':
      return { type: 'array', ...bounds(), item: fieldType(must(d.element, 'a zod array has an element type')) };
    default:
      return { type: 'other' };
  }
}

const isOptional = (s: z.ZodType) => ['optional', 'default'].includes(defOf(s).type);

function objectFields(schema: z.ZodType | undefined, where: RequestField['in']): RequestField[] {
  const shape = schema ? defOf(schema).shape : undefined;
  return Object.entries(shape ?? {}).map(([name, s]) => ({
    in: where,
    name,
    required: !isOptional(s),
    type: fieldType(s),
  }));
}

/**
 * The interface operations whose request the interface states, each with every request value the
 * contract gives it: body fields, query parameters and, on modifying calls, the Idempotency-Key.
 * Endpoints the interface shows only as a sample call (fieldsNotShown) are left out: their request
 * schema is the simulator's choice, not the interface's.
 * @example operations().find((o) => o.route.id === 'createConnection')!.fields.map((f) => f.name)
 * // ['connectorId', 'environment', 'scopeLabel', 'capabilities', 'Idempotency-Key']
 */
export function operations(): Operation[] {
  return (
    interfaceRoutes()
      // The OpenAPI document's route has "No parameters" in the interface (its download query is the simulator's).
      .filter((r) => !r.fieldsNotShown && (r.kind ?? 'json') !== 'document' && (r.body || r.query || r.idempotent))
      .map((route) => ({
        route,
        fields: [
          ...objectFields(route.body, 'body'),
          ...objectFields(route.query, 'query'),
          ...(route.idempotent
            ? [{ in: 'header' as const, name: 'Idempotency-Key', required: true, type: fieldType(IdempotencyKey) }]
            : []),
        ],
      }))
      .filter((o) => o.fields.some((f) => f.type.type !== 'other' || f.required))
  );
}
