// Every Schema Object of a deployment's openapi.json held against the JSON Schema 2020-12 meta-schema
// (the dialect OpenAPI 3.1 gives Schema Objects): the OpenAPI 3.1 schema leaves them to the dialect, so
// `exclusiveMinimum: true` (the 3.0 form) or a `pattern` that is no regular expression pass it unseen.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { KIT_AJV_OPTIONS } from '../../rules/ajv-options.ts';
import { pointer } from './openapi.ts';
import { schemaObjects } from './openapi-schema-objects.ts';

const META_2020 = 'https://json-schema.org/draft/2020-12/schema';
/** Dialects whose Schema Objects the 2020-12 meta-schema judges (OpenAPI's base dialect extends it by annotations only). */
const JUDGED_DIALECT =
  /^https:\/\/(?:json-schema\.org\/draft\/2020-12\/schema|spec\.openapis\.org\/oas\/3\.1\/dialect\/[\w.-]+)#?$/;

export interface SchemaMetaVerdict {
  /** Schema Objects the meta-schema refuses: where, and the first reason. */
  invalid: { at: string; error: string }[];
  judged: number;
  /** Why some or all Schema Objects were not judged. */
  notJudged: string[];
}

/**
 * A pattern is valid when JavaScript reads it with or without the `u` flag: ECMA-262 is the dialect's
 * regular expression language, and documents escape characters (`\:`) that only the flag forbids.
 */
function validRegex(text: string): boolean {
  for (const flags of ['', 'u'])
    try {
      new RegExp(text, flags);
      return true;
    } catch {}
  return false;
}

/** Keywords whose value is a subschema, an array of them, or a map of them (JSON Schema 2020-12). */
const ONE = ['additionalProperties', 'items', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'];
const ONE_MORE = ['unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const MANY = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/**
 * The first `pattern` (or patternProperties key) inside a schema that is no regular expression, with the
 * pointer below the schema: the meta-schema's format "regex" for them. Bounded in depth and visits.
 * @example invalidPattern({ properties: { k: { pattern: '[_:-.]' } } }) // '/properties/k/pattern [_:-.]'
 */
export function invalidPattern(schema: unknown): string | undefined {
  let visits = 0;
  const visit = (s: unknown, at: string, depth: number): string | undefined => {
    if (!s || typeof s !== 'object' || Array.isArray(s) || depth > 64 || visits++ > 50_000) return undefined;
    const o = s as Record<string, unknown>;
    if (typeof o.pattern === 'string' && !validRegex(o.pattern)) return `${at}/pattern ${o.pattern}`;
    const sub = (k: string, v: unknown) => visit(v, `${at}/${k}`, depth + 1);
    for (const k of [...ONE, ...ONE_MORE]) {
      const found = sub(k, o[k]);
      if (found) return found;
    }
    for (const k of MANY)
      if (Array.isArray(o[k]))
        for (const [i, v] of (o[k] as unknown[]).entries()) {
          const found = sub(`${k}/${i}`, v);
          if (found) return found;
        }
    for (const k of MAP) {
      const map = o[k];
      if (!map || typeof map !== 'object' || Array.isArray(map)) continue;
      for (const [name, v] of Object.entries(map)) {
        if (k === 'patternProperties' && !validRegex(name)) return `${at}/patternProperties key ${name}`;
        const found = sub(`${k}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, v);
        if (found) return found;
      }
    }
    return undefined;
  };
  return visit(schema, '', 0);
}

// One meta-schema validator per process (compiling it costs CPU); it keeps no state between calls.
let meta: ValidateFunction | undefined;
function metaValidator(): ValidateFunction {
  if (meta) return meta;
  // Ajv compiles its meta-schemas without their formats: patterns are judged by invalidPattern instead.
  const ajv = new Ajv2020({ ...KIT_AJV_OPTIONS, strict: false, allErrors: false });
  const compiled = ajv.getSchema(META_2020);
  if (!compiled) throw new Error('Ajv2020 carries no JSON Schema 2020-12 meta-schema');
  meta = compiled;
  return compiled;
}

/** The document's Schema Objects judged by the meta-schema (no cache: see schemaMetaVerdict). */
export function judgeSchemaObjects(doc: unknown): SchemaMetaVerdict {
  const out: SchemaMetaVerdict = { invalid: [], judged: 0, notJudged: [] };
  const dialect = (doc as { jsonSchemaDialect?: unknown } | null)?.jsonSchemaDialect;
  if (dialect !== undefined && !(typeof dialect === 'string' && JUDGED_DIALECT.test(dialect))) {
    out.notJudged.push(`the document names its own dialect ${JSON.stringify(dialect)}`.slice(0, 200));
    return out;
  }
  const { schemas, cut } = schemaObjects(doc);
  if (cut) out.notJudged.push(`Schema Objects past the first ${schemas.length}`);
  const validate = metaValidator();
  const ownDialect: string[] = [];
  for (const { schema, at } of schemas) {
    const declared = (schema as { $schema?: unknown } | null)?.$schema;
    if (declared !== undefined && !(typeof declared === 'string' && JUDGED_DIALECT.test(declared))) {
      ownDialect.push(pointer(...at));
      continue;
    }
    out.judged++;
    try {
      const pattern = invalidPattern(schema);
      if (pattern) {
        out.invalid.push({ at: pointer(...at), error: `${pattern} must match format "regex"` });
        continue;
      }
      if (validate(schema)) continue;
      const e = validate.errors?.[0];
      out.invalid.push({ at: pointer(...at), error: e ? `${e.instancePath || '/'} ${e.message}` : 'invalid' });
    } catch (e) {
      // A schema nested deeper than the stack allows: no verdict rather than a wrong one.
      out.notJudged.push(`${pointer(...at)} (${(e as Error).message})`.slice(0, 200));
    }
  }
  if (ownDialect.length) out.notJudged.push(`${ownDialect.length} Schema Objects naming another $schema`);
  return out;
}

/** Verdicts kept by document text: a run fetches the same document as the run before it. */
const verdicts = new Map<string, SchemaMetaVerdict>();
const VERDICTS_KEPT = 4;
const KEY_CHARS = 1024 * 1024;

/**
 * The document's Schema Objects judged once per document text (bounded in count and characters).
 * @example schemaMetaVerdict(ex.text, doc).invalid // [{ at: '#/paths/…/schema', error: '/exclusiveMinimum must be number' }]
 */
export function schemaMetaVerdict(text: string, doc: unknown): SchemaMetaVerdict {
  const known = verdicts.get(text);
  if (known) return known;
  const verdict = judgeSchemaObjects(doc);
  if (text.length <= KEY_CHARS) {
    const oldest = verdicts.keys().next().value;
    if (verdicts.size >= VERDICTS_KEPT && oldest !== undefined) verdicts.delete(oldest);
    verdicts.set(text, verdict);
  }
  return verdict;
}
