// totara: the team's TypeBox schemas (as plain JSON Schema objects built by a tiny `Type`) and an Ajv-like
// validator whose error text (`body/scopeLabel must NOT have fewer than 2 characters`) becomes the envelope's detail.
import { ENVIRONMENTS } from './types.ts';

export interface Schema {
  type?: 'object' | 'string' | 'array' | 'integer' | 'boolean';
  properties?: Record<string, Schema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  enum?: readonly string[];
  items?: Schema;
  format?: string;
  description?: string;
}

/** TypeBox's builders, reduced to what the routes use. */
export const Type = {
  Object(properties: Record<string, Schema>, optional: string[] = []): Schema {
    return { type: 'object', properties, required: Object.keys(properties).filter((k) => !optional.includes(k)) };
  },
  String(opts: Omit<Schema, 'type'> = {}): Schema {
    return { type: 'string', ...opts };
  },
  Array(items: Schema, opts: Omit<Schema, 'type' | 'items'> = {}): Schema {
    return { type: 'array', items, ...opts };
  },
  Union(values: readonly string[]): Schema {
    return { type: 'string', enum: values };
  },
};

const Id = Type.String({ minLength: 2, maxLength: 120 });
const Environment = Type.Union(ENVIRONMENTS);

export const CapabilityCheckBody = Type.Object({ connectorId: Id, capability: Id, environment: Environment }, [
  'environment',
]);
export const ConnectionCreateBody = Type.Object({
  connectorId: Id,
  environment: Environment,
  scopeLabel: Type.String({ minLength: 2, maxLength: 120 }),
  capabilities: Type.Array(Id, { minItems: 1, maxItems: 24 }),
});
export const IdempotencyKeyBody = Type.Object({ operation: Type.String({ minLength: 2, maxLength: 80 }) });
export function webhookBody(events: readonly string[]): Schema {
  return Type.Object({
    url: Type.String({ minLength: 8, maxLength: 2048, format: 'uri' }),
    events: Type.Array(Type.Union(events), { minItems: 1, maxItems: 20 }),
  });
}

/** Ajv's first error (allErrors off, as Fastify configures it), as `instancePath message`, or null when valid. */
export function validate(schema: Schema, value: unknown, path = 'body'): string | null {
  if (schema.type === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return `${path} must be object`;
    const obj = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (obj[key] === undefined) return `${path} must have required property '${key}'`;
    }
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      if (obj[key] === undefined) continue;
      const err = validate(sub, obj[key], `${path}/${key}`);
      if (err) return err;
    }
    return null;
  }
  if (schema.type === 'array') {
    if (!Array.isArray(value)) return `${path} must be array`;
    if (schema.minItems !== undefined && value.length < schema.minItems)
      return `${path} must NOT have fewer than ${schema.minItems} items`;
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      return `${path} must NOT have more than ${schema.maxItems} items`;
    for (let i = 0; i < value.length; i++) {
      const err = validate(schema.items ?? {}, value[i], `${path}/${i}`);
      if (err) return err;
    }
    return null;
  }
  if (schema.type === 'string') {
    if (typeof value !== 'string') return `${path} must be string`;
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength)
      return `${path} must NOT have fewer than ${schema.minLength} characters`;
    if (schema.maxLength !== undefined && length > schema.maxLength)
      return `${path} must NOT have more than ${schema.maxLength} characters`;
    if (schema.enum && !schema.enum.includes(value))
      return `${path} must be equal to one of the allowed values: ${schema.enum.join(', ')}`;
    if (schema.format === 'uri') {
      try {
        new URL(value);
      } catch {
        return `${path} must match format "uri"`;
      }
    }
    return null;
  }
  return null;
}
