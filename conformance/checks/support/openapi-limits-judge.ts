// The interface's request limits held against what a deployment's openapi.json documents for the same
// parameter or body field: each boundary value validated with Ajv against the documented schema.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { KIT_AJV_OPTIONS } from '../../rules/ajv-options.ts';
import { deref, type OpenApiLike, operationLocation, pointer } from './openapi.ts';
import { type BoundaryCase, type LimitedField, limitedFields } from './openapi-limits.ts';
import { allowedValues } from './openapi-schema-values.ts';
import { interfaceSubset } from './openapi-subset.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** One boundary value on which the document and the interface disagree. */
export interface LimitFinding {
  field: LimitedField;
  /** Where the documented schema stands (a JSON pointer into openapi.json). */
  at: string;
  case: BoundaryCase;
  /**
   * narrower: the document refuses a value the interface allows; wider: it accepts one the interface
   * refuses; characters: it refuses a valid value only by a pattern or format of its own on a value
   * whose characters the interface does not fix (identifiers' format is "not shown").
   */
  kind: 'narrower' | 'wider' | 'characters';
  errors: string;
}

export interface LimitVerdicts {
  findings: LimitFinding[];
  /** Values judged, for the notes: "POST /connections body scopeLabel". */
  judged: string[];
  /** Values the document does not describe (no verdict), or could not be compiled, and why. */
  notJudged: string[];
}

const ID = 'urn:ncs-conformance:target-openapi-limits';
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Two validators of one document: as written, and with its own patterns and formats left out. Patterns
 * are read without the `u` flag: documents escape characters in classes (`[\w.\:-]`) that only the
 * flag forbids, and every boundary value is ASCII or, the venue name, within the Basic Multilingual Plane.
 */
function validators(doc: OpenApiLike) {
  const options = { ...KIT_AJV_OPTIONS, strict: false, allErrors: true, unicodeRegExp: false } as const;
  const strict = addFormats(new Ajv2020(options));
  const lenient = new Ajv2020({ ...options, validateFormats: false });
  lenient.removeKeyword('pattern');
  // Only the interface's paths are compiled from (openapi-subset.ts): the rest is never judged.
  strict.addSchema(interfaceSubset(doc) as object, ID);
  lenient.addSchema(interfaceSubset(doc) as object, ID);
  return (at: string[]) => {
    const ref = `${ID}${pointer(...at)}`;
    return { strict: strict.getSchema(ref), lenient: lenient.getSchema(ref), at: pointer(...at) };
  };
}

/** Whether a schema (its references and compositions followed) names the property. */
function describesProperty(doc: OpenApiLike, schema: unknown, name: string, depth = 0): boolean {
  const s = deref(doc, schema, []).value;
  if (!isObject(s) || depth > 16) return false;
  if (isObject(s.properties) && name in s.properties) return true;
  return ['allOf', 'anyOf', 'oneOf'].some(
    (k) => Array.isArray(s[k]) && (s[k] as unknown[]).some((b) => describesProperty(doc, b, name, depth + 1)),
  );
}

/** Where the documented schema of a header or query parameter stands, if the operation documents it. */
function parameterSchemaAt(doc: OpenApiLike, field: LimitedField): string[] | undefined {
  const loc = operationLocation(doc, field.route.method, field.route.path);
  if (!loc) return undefined;
  const listed = (owner: unknown, at: string[]) =>
    (Array.isArray((owner as { parameters?: unknown })?.parameters)
      ? (owner as { parameters: unknown[] }).parameters
      : []
    ).map((p, i) => deref(doc, p, [...at, 'parameters', String(i)]));
  // Operation parameters override the path item's (OpenAPI 3.1 §4.8.10): theirs come first.
  const same = (n: unknown) =>
    typeof n === 'string' && (field.in === 'header' ? n.toLowerCase() === field.name.toLowerCase() : n === field.name);
  const param = [...listed(loc.op, loc.at), ...listed(loc.item, loc.itemAt)].find(
    (p) => isObject(p.value) && p.value.in === field.in && same(p.value.name),
  );
  if (!param || !isObject(param.value)) return undefined;
  if (param.value.schema !== undefined) return [...param.at, 'schema'];
  const content = isObject(param.value.content) ? Object.keys(param.value.content)[0] : undefined;
  return content ? [...param.at, 'content', content, 'schema'] : undefined;
}

/** Where the documented JSON request body schema stands, if the operation documents one naming the field. */
function bodySchemaAt(doc: OpenApiLike, field: LimitedField): string[] | undefined {
  const loc = operationLocation(doc, field.route.method, field.route.path);
  if (!loc) return undefined;
  const body = deref(doc, loc.op.requestBody, [...loc.at, 'requestBody']);
  const content = isObject(body.value) && isObject(body.value.content) ? body.value.content : {};
  const type = Object.keys(content).find((t) => /^application\/(?:[\w.+-]+\+)?json/.test(t));
  const schema = type && isObject(content[type]) ? content[type].schema : undefined;
  if (!type || schema === undefined || !describesProperty(doc, schema, field.name)) return undefined;
  return [...body.at, 'content', type, 'schema'];
}

const pointerToken = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** The errors a validation reports about the field (a body's other fields and its root are not judged here). */
function fieldErrors(v: ValidateFunction, value: unknown, name: string | undefined): ErrorObject[] {
  if (v(value)) return [];
  const errors = v.errors ?? [];
  if (name === undefined) return [...errors];
  const at = `/${pointerToken(name)}`;
  return errors.filter((e) => e.instancePath === at || e.instancePath.startsWith(`${at}/`));
}

const describe = (errors: ErrorObject[]) =>
  [...new Set(errors.map((e) => `${e.instancePath || '/'} ${e.message}`))].slice(0, 3).join('; ');

/**
 * The forms a value takes in its place: a query parameter is text on the wire, so a document may
 * describe a number as an integer or as a string (with a pattern); either reading accepts it.
 */
const forms = (field: LimitedField, value: unknown): unknown[] =>
  field.in === 'header'
    ? [String(value)]
    : field.in === 'query' && typeof value === 'number'
      ? [value, String(value)]
      : [value];

/** A body the interface accepts with every required field at its first valid value; `name` set to `value`. */
function bodyWith(fields: readonly LimitedField[], field: LimitedField, value: unknown): Json {
  const body: Json = {};
  for (const f of fields)
    if (f.route === field.route && f.in === 'body' && f.required) body[f.name] = f.cases.find((c) => c.valid)?.value;
  body[field.name] = value;
  return body;
}

/**
 * The values a documented enumeration of the field offers beyond the contract's (an Environment value
 * `staging`), as boundary cases the interface refuses: the fixed probe outside the enumeration cannot
 * guess them.
 */
function documentedExtras(doc: OpenApiLike, field: LimitedField, at: string[]): BoundaryCase[] {
  if (field.type.type !== 'enum') return [];
  const contract = field.type.values;
  // The parts of `at` walked as they are (no pointer text to decode again).
  const schema = at.reduce<unknown>((node, k) => (isObject(node) ? node[k] : undefined), doc);
  const allowed = allowedValues(doc, schema, field.in === 'body' ? [field.name] : []);
  return [...(allowed ?? [])]
    .filter((v) => typeof v !== 'string' || !contract.includes(v))
    .filter((v) => !field.cases.some((c) => c.value === v))
    .map((value) => ({ value, valid: false, what: 'a value the documented enumeration adds' }));
}

/**
 * Every limited request value of the interface's endpoints, judged against the document: the values
 * of the contract's boundary it refuses, those past the boundary it accepts.
 * @example judgeLimits(doc).findings.filter((f) => f.kind === 'narrower') // the MUST failures
 */
export function judgeLimits(doc: OpenApiLike): LimitVerdicts {
  const out: LimitVerdicts = { findings: [], judged: [], notJudged: [] };
  const schemaAt = validators(doc);
  const fields = limitedFields();
  for (const field of fields) {
    const label = `${field.route.method} ${field.route.path} ${field.in} ${field.name}`;
    const at = field.in === 'body' ? bodySchemaAt(doc, field) : parameterSchemaAt(doc, field);
    if (!at) {
      out.notJudged.push(`${label} (not documented)`);
      continue;
    }
    let compiled: ReturnType<typeof schemaAt>;
    try {
      compiled = schemaAt(at);
    } catch (e) {
      out.notJudged.push(`${label} (its schema does not compile: ${(e as Error).message})`);
      continue;
    }
    const { strict, lenient } = compiled;
    if (!strict || !lenient) {
      out.notJudged.push(`${label} (no schema at ${compiled.at})`);
      continue;
    }
    out.judged.push(label);
    const inBody = field.in === 'body' ? field.name : undefined;
    const errorsOf = (v: ValidateFunction, value: unknown) => {
      // Accepted when one form of the value is; the errors reported are the first form's.
      const all = forms(field, value).map((f) => fieldErrors(v, inBody ? bodyWith(fields, field, f) : f, inBody));
      return all.some((e) => e.length === 0) ? [] : (all[0] ?? []);
    };
    const interfacePattern = field.type.type === 'string' && field.type.pattern !== undefined;
    for (const c of [...field.cases, ...documentedExtras(doc, field, at)]) {
      const errors = errorsOf(strict, c.value);
      if (c.valid && errors.length > 0) {
        // Refused only by a pattern or format of the document's own where the interface fixes no characters.
        const byCharacters = !interfacePattern && !c.anyCharacters && errorsOf(lenient, c.value).length === 0;
        out.findings.push({
          field,
          at: compiled.at,
          case: c,
          kind: byCharacters ? 'characters' : 'narrower',
          errors: describe(errors),
        });
      } else if (!c.valid && errors.length === 0)
        out.findings.push({ field, at: compiled.at, case: c, kind: 'wider', errors: '' });
    }
  }
  return out;
}
