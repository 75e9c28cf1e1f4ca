// openapi.json's success schemas describe the data the interface lists for each endpoint: where a data
// schema declares properties, it declares the interface's fields (an answer documented as another
// endpoint's still validates real answers, yet misleads every generated client), and where it enumerates
// a field the interface types as an enumeration (Environment), it offers no value the interface lacks.
import type { z } from 'zod';
import { interfaceRoutes } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import { type OpenApiLike, pointer, requireOpenApi, successContent } from './support/openapi.ts';
import { allowedValues, declaredProperties, type Step, schemasAt } from './support/openapi-schema-values.ts';

interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  entries?: Record<string, string>;
}
const defOf = (s: z.ZodType | undefined) => (s as unknown as { def?: ZodDef } | undefined)?.def;

/** A zod schema's own object shape (through optional, default and nullable), if it is an object. */
function shapeOf(s: z.ZodType | undefined): Record<string, z.ZodType> | undefined {
  const d = defOf(s);
  if (!d) return undefined;
  if (d.innerType && ['optional', 'default', 'nullable'].includes(d.type)) return shapeOf(d.innerType);
  return d.type === 'object' ? d.shape : undefined;
}

/**
 * Every enumeration inside a data schema of the contract, with the steps to it.
 * @example enumerations(Connection) // [{ path: ['environment'], values: ['development', 'sandbox', 'pilot', 'production'] }]
 */
export function enumerations(
  s: z.ZodType | undefined,
  path: Step[] = [],
  depth = 0,
): { path: Step[]; values: string[] }[] {
  const d = defOf(s);
  if (!d || depth > 12) return [];
  if (d.innerType && ['optional', 'default', 'nullable'].includes(d.type))
    return enumerations(d.innerType, path, depth + 1);
  if (d.type === 'enum') return [{ path, values: Object.values(d.entries ?? {}) }];
  if (d.type === 'array') return enumerations(d.element, [...path, '[]'], depth + 1);
  if (d.type === 'object')
    return Object.entries(d.shape ?? {}).flatMap(([k, v]) => enumerations(v, [...path, k], depth + 1));
  return [];
}

/** The contract's object shape at `steps` inside a data schema (through arrays), if there is one. */
function objectShapeAt(s: z.ZodType | undefined, steps: Step[], depth = 0): Record<string, z.ZodType> | undefined {
  const d = defOf(s);
  if (!d || depth > 12) return undefined;
  if (d.innerType && ['optional', 'default', 'nullable'].includes(d.type))
    return objectShapeAt(d.innerType, steps, depth + 1);
  const [step, ...rest] = steps;
  if (step === undefined) return shapeOf(s);
  if (step === '[]') return d.type === 'array' ? objectShapeAt(d.element, rest, depth + 1) : undefined;
  return d.type === 'object' ? objectShapeAt(d.shape?.[String(step)], rest, depth + 1) : undefined;
}

/**
 * Every object inside a data schema of the contract (data itself, a record in a list, a record's nested
 * entries), with the steps to it and the fields the interface lists for it.
 * @example objectShapes(ProvidersData, ['data']) // [{ path: ['data'], fields: ['count', 'providers'] }, { path: ['data', 'providers', '[]'], fields: ['id', …] }]
 */
export function objectShapes(
  s: z.ZodType | undefined,
  path: Step[] = [],
  depth = 0,
): { path: Step[]; fields: string[] }[] {
  const d = defOf(s);
  if (!d || depth > 12) return [];
  if (d.innerType && ['optional', 'default', 'nullable'].includes(d.type))
    return objectShapes(d.innerType, path, depth + 1);
  if (d.type === 'array') return objectShapes(d.element, [...path, '[]'], depth + 1);
  if (d.type !== 'object') return [];
  const shape = d.shape ?? {};
  return [
    { path, fields: Object.keys(shape) },
    ...Object.entries(shape).flatMap(([k, v]) => objectShapes(v, [...path, k], depth + 1)),
  ];
}

/** The JSON type the contract gives a field ('string', 'number', …), through optional, default and nullable. */
function jsonTypeOf(s: z.ZodType | undefined, depth = 0): string | undefined {
  const d = defOf(s);
  if (!d || depth > 8) return undefined;
  if (d.innerType && ['optional', 'default', 'nullable'].includes(d.type)) return jsonTypeOf(d.innerType, depth + 1);
  if (d.type === 'enum') return 'string';
  return ['string', 'boolean', 'number', 'array', 'object'].includes(d.type) ? d.type : undefined;
}

/** Documented types that hold the contract's: a number may be documented integer (and the other way round). */
const HOLDS: Record<string, string[]> = { number: ['number', 'integer'] };

/**
 * The types a document states for the value at `path` (every schema there that names one); empty when none does.
 */
function documentedTypes(doc: OpenApiLike, schema: unknown, path: Step[]): Set<string> {
  const out = new Set<string>();
  for (const s of schemasAt(doc, schema, path)) {
    const t = (s as { type?: unknown }).type;
    for (const x of Array.isArray(t) ? t : [t]) if (typeof x === 'string' && x !== 'null') out.add(x);
  }
  return out;
}

/** Whether a schema at `path` admits null (`type` listing "null", or OpenAPI 3.0's `nullable: true`). */
function documentsNull(doc: OpenApiLike, schema: unknown, path: Step[]): boolean {
  return schemasAt(doc, schema, path).some((s) => {
    const t = (s as { type?: unknown; nullable?: unknown }).type;
    return (s as { nullable?: unknown }).nullable === true || t === 'null' || (Array.isArray(t) && t.includes('null'));
  });
}

/** What the document's data schemas leave out of, or add to, the interface's answers. */
export function answerFindings(doc: OpenApiLike) {
  const missing: string[] = [];
  const wider: string[] = [];
  const notJudged: string[] = [];
  for (const route of interfaceRoutes()) {
    if (route.fieldsNotShown || (route.kind ?? 'json') !== 'json' || !route.data) continue;
    const label = `${route.method} ${route.path}`;
    const found = successContent(doc, route.method, route.path);
    const type = Object.keys(found?.content ?? {}).find((t) => /^application\/(?:[\w.+-]+\+)?json/.test(t));
    const schema = type ? found?.content[type]?.schema : undefined;
    if (!found || !type || schema === undefined) continue; // documented without content: other checks say so
    const at = `openapi.json${pointer(...found.at, type, 'schema')}`;
    if (!shapeOf(route.data)) continue;
    // data itself, and every record inside it (a Capability in the catalog, a Connection's capability
    // entries): where the document declares an object's properties, it declares the interface's fields.
    for (const { path, fields } of objectShapes(route.data, ['data'])) {
      const declared = declaredProperties(doc, schema, path);
      const where = path.join('.').replace(/\.\[\]/g, '[]');
      if (!declared) {
        if (path.length === 1) notJudged.push(`${label} (its data declares no properties)`);
        continue;
      }
      const absent = fields.filter((f) => !declared.has(f));
      if (absent.length)
        missing.push(
          `${label} (${at}): ${where} declares ${[...declared].join(', ') || 'nothing'}, not ${absent.join(', ')}`,
        );
      // A declared field typed otherwise than the interface types it (expiresAt "string, date-time" as an integer).
      const shape = objectShapeAt(route.data, path.slice(1));
      for (const f of fields.filter((x) => declared.has(x))) {
        const wanted = jsonTypeOf(shape?.[f]);
        const stated = documentedTypes(doc, schema, [...path, f]);
        if (!wanted || stated.size === 0) continue;
        if (!(HOLDS[wanted] ?? [wanted]).some((t) => stated.has(t)))
          missing.push(`${label} (${at}): ${where}.${f} typed ${[...stated].join(' | ')}, the interface's ${wanted}`);
        // A field the interface always gives (not optional) documented as possibly null.
        const open = ['optional', 'nullable', 'default'].includes(defOf(shape?.[f])?.type ?? '');
        if (!open && documentsNull(doc, schema, [...path, f]))
          missing.push(`${label} (${at}): ${where}.${f} documented nullable, the interface's ${wanted} always given`);
      }
    }
    for (const e of enumerations(route.data, ['data'])) {
      const allowed = allowedValues(doc, schema, e.path);
      const extra = allowed ? [...allowed].filter((v) => typeof v !== 'string' || !e.values.includes(v)) : [];
      if (extra.length)
        wider.push(
          `${label} ${e.path.join('.').replace(/\.\[\]/g, '[]')} (${at}) enumerates ${extra.map((v) => JSON.stringify(v)).join(', ')} beyond ${e.values.join(', ')}`,
        );
    }
  }
  return { missing, wider, notJudged };
}

export const openApiAnswerFields = defineCheck({
  name: 'openapi.answer-fields-documented',
  title:
    "where openapi.json's 200 schema of an interface operation declares data's properties (or a record's inside it), it declares the fields the interface lists there, types them as the interface does, and enumerates no value of them the interface lacks (Environment)",
  severity: 'SHOULD',
  section: 'Endpoints',
  tags: ['openapi', 'responses'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const { missing, wider, notJudged } = answerFindings(doc);
    if (notJudged.length) ctx.note(`not judged: ${listed(notJudged)}`);
    ctx.expect.that(missing.length === 0, {
      expected: "each documented data schema declares the fields the interface lists for that endpoint's data",
      observed: listed(missing),
      exchange: ex,
    });
    ctx.expect.that(wider.length === 0, {
      expected:
        'each enumeration the document gives an answer field holds only values the interface allows (Environment: development, sandbox, pilot, production)',
      observed: listed(wider),
      exchange: ex,
    });
  },
});

export const openApiAnswerChecks = [openApiAnswerFields];
