import type { OpenApiLike } from './openapi.ts';

type Schema = Record<string, unknown>;

function resolve(schema: unknown, doc: OpenApiLike): Schema | undefined {
  let s = schema as Schema | undefined;
  for (let hops = 0; s && typeof s.$ref === 'string' && hops < 10; hops++) {
    const parts = s.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node: unknown = doc;
    for (const p of parts) node = (node as Record<string, unknown> | undefined)?.[p];
    s = node as Schema | undefined;
  }
  return s;
}

function sizedString(label: string, min = 0, max = Infinity): string {
  let s = label;
  while (s.length < min) s += '-x';
  return s.slice(0, Math.max(min, Math.min(max, s.length)));
}

/**
 * The smallest value a JSON schema accepts, filled with `label` where it takes text: a body that
 * passes validation, so probes without credentials are refused for the credentials alone.
 * @example sampleFromSchema(requestSchema, doc, 'ncs-conformance-probe') // { connectorId: 'ncs-conformance-probe', ... }
 */
export function sampleFromSchema(schema: unknown, doc: OpenApiLike, label: string, depth = 0): unknown {
  const s = resolve(schema, doc);
  if (!s || depth > 8) return {};
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const alternatives = (s.anyOf ?? s.oneOf ?? s.allOf) as unknown[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length)
    return sampleFromSchema(alternatives[0], doc, label, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const key of (s.required as string[] | undefined) ?? [])
        out[key] = sampleFromSchema(props[key], doc, label, depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, Number(s.minItems ?? 1)) }, () =>
        sampleFromSchema(s.items, doc, label, depth + 1),
      );
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    case 'string': {
      if (s.format === 'uri' || s.format === 'url') return 'https://ncs-conformance.invalid/receiver';
      if (s.format === 'date-time') return new Date().toISOString();
      return sizedString(label, Number(s.minLength ?? 0), Number(s.maxLength ?? Infinity));
    }
    default:
      return {};
  }
}
