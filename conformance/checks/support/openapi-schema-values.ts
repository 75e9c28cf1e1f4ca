// What a documented schema says about one value inside it (error.code of a failure envelope, environment of
// an answer): the values it enumerates, and the property names a schema declares, with references and
// compositions followed the way JSON Schema 2020-12 combines them. Bounded: a hostile document's schemas
// may nest or refer without end.
import { deref } from './openapi.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** One step into a value: a property name, or '[]' for the items of an array. */
export type Step = string;

const MAX_DEPTH = 24;

/** A budget of schema visits shared by one question (a hostile document's compositions may fan out). */
class Budget {
  private left: number;
  constructor(visits: number) {
    this.left = visits;
  }
  take(): boolean {
    return this.left-- > 0;
  }
}

const intersect = (a: Set<unknown> | undefined, b: Set<unknown> | undefined) =>
  a === undefined ? b : b === undefined ? a : new Set([...a].filter((x) => b.has(x)));

/** The schemas a value at `step` is held to by `s` itself (properties, items, prefixItems are not followed). */
function stepInto(s: Json, step: Step): unknown {
  if (step === '[]') return s.items;
  return isObject(s.properties) ? s.properties[step] : undefined;
}

function allowed(doc: unknown, schema: unknown, path: Step[], depth: number, budget: Budget): Set<unknown> | undefined {
  if (depth > MAX_DEPTH || !budget.take()) return undefined;
  // A $ref beside other keywords applies with them (2020-12): the reference is one more part of an allOf.
  const s = isObject(schema) ? schema : undefined;
  if (!s) return schema === false ? new Set() : undefined;
  const [step, ...rest] = path;
  let own: Set<unknown> | undefined;
  if (step === undefined) {
    own = Array.isArray(s.enum) ? new Set(s.enum) : 'const' in s ? new Set([s.const]) : undefined;
  } else {
    const inner = stepInto(s, step);
    own = inner === undefined ? undefined : allowed(doc, inner, rest, depth + 1, budget);
  }
  if (typeof s.$ref === 'string')
    own = intersect(own, allowed(doc, deref(doc, { $ref: s.$ref }, []).value, path, depth + 1, budget));
  if (Array.isArray(s.allOf))
    for (const part of s.allOf) own = intersect(own, allowed(doc, part, path, depth + 1, budget));
  for (const k of ['anyOf', 'oneOf'] as const) {
    if (!Array.isArray(s[k])) continue;
    let union: Set<unknown> | undefined = new Set();
    for (const branch of s[k] as unknown[]) {
      const b = allowed(doc, branch, path, depth + 1, budget);
      if (b === undefined) {
        union = undefined; // one branch leaves the value open: so does the whole
        break;
      }
      for (const v of b) union.add(v);
    }
    own = intersect(own, union);
  }
  return own;
}

/**
 * The values a schema lets the value at `path` take when it enumerates them (enum, const, compositions of
 * them), else undefined: the schema leaves it open (or the document is too deep to tell).
 * @example allowedValues(doc, envelope, ['error', 'code']) // Set { 'unauthorized', … }
 */
export function allowedValues(doc: unknown, schema: unknown, path: Step[]): Set<unknown> | undefined {
  return allowed(doc, schema, path, 0, new Budget(5_000));
}

/**
 * The schemas a value at `path` is described by anywhere in `schema` (every branch of references and
 * compositions), for reading what they declare.
 * @example schemasAt(doc, envelope, ['data']) // [{ type: 'object', properties: { … } }]
 */
export function schemasAt(doc: unknown, schema: unknown, path: Step[]): Json[] {
  const out: Json[] = [];
  const budget = new Budget(5_000);
  const visit = (value: unknown, rest: Step[], depth: number) => {
    if (depth > MAX_DEPTH || !budget.take() || !isObject(value)) return;
    const [step, ...after] = rest;
    if (step === undefined) out.push(value);
    else {
      const inner = stepInto(value, step);
      if (inner !== undefined) visit(inner, after, depth + 1);
    }
    if (typeof value.$ref === 'string') visit(deref(doc, { $ref: value.$ref }, []).value, rest, depth + 1);
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const)
      if (Array.isArray(value[k])) for (const part of value[k] as unknown[]) visit(part, rest, depth + 1);
  };
  visit(schema, path, 0);
  return out;
}

/**
 * The property names the schemas of the value at `path` declare, or undefined when none declares any
 * (a free-form object leaves its fields open).
 * @example declaredProperties(doc, envelope, ['data']) // Set { 'tenant', 'count', 'connections' }
 */
export function declaredProperties(doc: unknown, schema: unknown, path: Step[]): Set<string> | undefined {
  const names = new Set<string>();
  let declares = false;
  for (const s of schemasAt(doc, schema, path))
    if (isObject(s.properties)) {
      declares = true;
      for (const k of Object.keys(s.properties)) names.add(k);
    }
  return declares ? names : undefined;
}
