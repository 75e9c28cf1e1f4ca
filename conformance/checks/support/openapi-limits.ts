// The request limits the interface fixes (its Limits table), as boundary values derived from the
// contract's zod schemas: the values a document of the interface must accept and those it should refuse.
import { IdempotencyKey } from '../../../simulator/contract/idempotency.ts';
import { LIMITS } from '../../../simulator/contract/limits.ts';
import type { RouteDef } from '../../../simulator/contract/route-def.ts';
import { type FieldType, fieldType } from '../../generated/request-fields.ts';
import { interfaceRoutes } from '../../rules/interface-routes.ts';

/** One boundary value of a request value: whether the interface accepts it, and what it is. */
export interface BoundaryCase {
  value: unknown;
  valid: boolean;
  what: string;
  /** A descriptive text's characters: the interface allows them (unlike an identifier's, whose format is not shown). */
  anyCharacters?: true;
}

/** A venue's name as people write it: letters beyond ASCII, spaces and punctuation, within every length limit. */
export const VENUE_NAME = 'Café Ümlaut & Söhne, Zürich (Nord) – Bar №2';

/** A request value the interface limits, with its boundary values. */
export interface LimitedField {
  route: RouteDef;
  in: 'body' | 'query' | 'header';
  name: string;
  type: FieldType;
  required: boolean;
  cases: BoundaryCase[];
}

const PRINTABLE = Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i));
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** The single character class of a pattern like ^[A-Za-z0-9._:-]{8,128}$ and its repetition bounds. */
function patternParts(pattern: RegExp): { allowed: string[]; min?: number; max?: number } | undefined {
  const cls = /\[[^\]]+\]/.exec(pattern.source)?.[0];
  if (!cls) return undefined;
  const one = new RegExp(`^${cls}$`);
  const m = /\{(\d+)(?:,(\d*))?\}\$?$/.exec(pattern.source);
  const min = m ? Number(m[1]) : /\+\$?$/.test(pattern.source) ? 1 : undefined;
  const max = m ? (m[2] === undefined ? Number(m[1]) : m[2] === '' ? undefined : Number(m[2])) : undefined;
  return { allowed: PRINTABLE.filter((c) => one.test(c)), min, max };
}

/**
 * The characters at the edges of the allowed set: the first and last of every run of consecutive code
 * points (A and Z, a and z, …) and every allowed character that is not a letter or digit.
 * @example edgeCharacters([...'ABC.']) // ['.', 'A', 'C']
 */
export function edgeCharacters(allowed: readonly string[]): string[] {
  const set = new Set(allowed);
  const code = (c: string) => c.charCodeAt(0);
  return allowed.filter(
    (c) =>
      !/[A-Za-z0-9]/.test(c) ||
      !set.has(String.fromCharCode(code(c) - 1)) ||
      !set.has(String.fromCharCode(code(c) + 1)),
  );
}

/** Whether the contract's limits accept `value` (the same rules the zod schema applies). */
export function contractAccepts(type: FieldType, value: unknown): boolean {
  switch (type.type) {
    case 'string': {
      if (typeof value !== 'string') return false;
      const n = [...value].length;
      return (
        (type.min === undefined || n >= type.min) &&
        (type.max === undefined || n <= type.max) &&
        (type.pattern === undefined || type.pattern.test(value))
      );
    }
    case 'enum':
      return typeof value === 'string' && type.values.includes(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && (type.min === undefined || value >= type.min);
    case 'array':
      return (
        Array.isArray(value) &&
        (type.min === undefined || value.length >= type.min) &&
        (type.max === undefined || value.length <= type.max) &&
        value.every((v) => contractAccepts(type.item, v))
      );
    default:
      return true;
  }
}

/** A text of `length` characters cycling through `chars`, distinct per `index` (its last letters encode it). */
function text(length: number, chars: readonly string[], index = 0): string {
  if (length <= 0) return '';
  const base = Array.from({ length }, (_, i) => chars[i % chars.length]).join('');
  let tag = '';
  for (let i = index; i > 0; i = Math.floor(i / LETTERS.length)) tag = LETTERS[i % LETTERS.length] + tag;
  return tag && chars.includes('a') ? (base.slice(0, Math.max(0, length - tag.length)) + tag).slice(0, length) : base;
}

function stringCases(type: Extract<FieldType, { type: 'string' }>): { value: string; what: string }[] {
  const parts = type.pattern ? patternParts(type.pattern) : undefined;
  const allowed = parts?.allowed ?? [...LETTERS];
  const min = type.min ?? parts?.min ?? 0;
  const max = type.max ?? parts?.max;
  const plain = allowed.filter((c) => /[a-z]/.test(c)).length ? allowed.filter((c) => /[a-z]/.test(c)) : allowed;
  const edges = parts ? edgeCharacters(allowed) : [];
  const out: { value: string; what: string }[] = [
    { value: text(min, edges.length ? edges : plain), what: `${min} characters (the minimum)` },
  ];
  if (min > 0) out.push({ value: text(min - 1, plain), what: `${min - 1} characters (one under the minimum)` });
  if (max !== undefined)
    out.push(
      { value: text(max, edges.length ? [...edges].reverse() : plain), what: `${max} characters (the maximum)` },
      { value: text(max + 1, plain), what: `${max + 1} characters (one over the maximum)` },
    );
  const len = Math.max(min, 2);
  for (const c of edges)
    out.push(
      { value: c + text(len - 1, plain), what: `${JSON.stringify(c)} first (a character the pattern allows)` },
      { value: text(len - 1, plain) + c, what: `${JSON.stringify(c)} last (a character the pattern allows)` },
    );
  if (parts)
    for (const c of PRINTABLE.filter((x) => !allowed.includes(x)))
      out.push({
        value: text(Math.floor(len / 2), plain) + c + text(len - Math.floor(len / 2) - 1, plain),
        what: `with ${JSON.stringify(c)} (a character the pattern does not allow)`,
      });
  return out;
}

function arrayCases(type: Extract<FieldType, { type: 'array' }>): { value: unknown[]; what: string }[] {
  const item = type.item;
  const itemCases = item.type === 'string' ? stringCases(item) : [];
  const shortest = item.type === 'string' ? (item.min ?? 1) : 1;
  const longest = item.type === 'string' ? (item.max ?? shortest) : shortest;
  const items = (count: number, length: number) =>
    Array.from({ length: count }, (_, i) => text(length, [...LETTERS], i + 1));
  const min = type.min ?? 0;
  const out: { value: unknown[]; what: string }[] = [
    { value: items(min, shortest), what: `${min} items (the minimum) of ${shortest} characters` },
  ];
  if (min > 0) out.push({ value: items(min - 1, shortest), what: `${min - 1} items (one under the minimum)` });
  if (type.max !== undefined)
    out.push(
      { value: items(type.max, longest), what: `${type.max} items (the maximum) of ${longest} characters` },
      { value: items(type.max + 1, shortest), what: `${type.max + 1} items (one over the maximum)` },
    );
  // An item's own limits, on a later item too (a first item valid and unlike any case: no duplicates).
  const first = text(shortest, [...LETTERS], LETTERS.length + 1);
  for (const c of itemCases) out.push({ value: [first, c.value], what: `a second item of ${c.what}` });
  return out;
}

/** The largest 32-bit signed integer: the large valid value of an integer the interface bounds from below only. */
const INT32_MAX = 2_147_483_647;

/** The boundary values of one limited request value, each marked by the contract's verdict. */
export function boundaryCases(type: FieldType): BoundaryCase[] {
  let raw: { value: unknown; what: string }[] = [];
  if (type.type === 'string') raw = stringCases(type);
  else if (type.type === 'array') raw = arrayCases(type);
  else if (type.type === 'enum') {
    const upper = type.values[0]?.toUpperCase() ?? 'X';
    raw = [
      ...type.values.map((v) => ({ value: v, what: 'a value of the enumeration' })),
      {
        value: type.values.includes(upper) ? type.values.join('-') : upper,
        what: 'a value outside the enumeration',
      },
    ];
  } else if (type.type === 'integer' && type.min !== undefined)
    raw = [
      { value: type.min, what: `${type.min} (the minimum)` },
      { value: type.min + 1, what: `${type.min + 1}` },
      { value: type.min - 1, what: `${type.min - 1} (one under the minimum)` },
      { value: type.min + 0.5, what: `${type.min + 0.5} (not an integer)` },
      // The interface's integers have a minimum only: a large value within what a 32-bit integer holds is
      // valid (a document's `maximum: 10000` narrows it; one at the int32 or int64 bound does not).
      { value: INT32_MAX, what: `${INT32_MAX} (a large value: no maximum is given)` },
    ];
  return raw.map((c) => ({ ...c, valid: contractAccepts(type, c.value) }));
}

/** Whether the contract limits this value at all (a bare string has no limit to document). */
function limited(type: FieldType): boolean {
  if (type.type === 'string') return type.min !== undefined || type.max !== undefined || type.pattern !== undefined;
  if (type.type === 'array') return type.min !== undefined || type.max !== undefined || limited(type.item);
  if (type.type === 'integer') return type.min !== undefined;
  return type.type === 'enum';
}

type ZodLike = Parameters<typeof fieldType>[0];
const shapeOf = (s: unknown) => (s as { def?: { shape?: Record<string, ZodLike> } } | undefined)?.def?.shape ?? {};
const optional = (s: ZodLike) => ['optional', 'default'].includes((s as unknown as { def: { type: string } }).def.type);

/**
 * Every request value of the interface's endpoints that the contract limits: body fields and query
 * parameters where the interface states the request (not the sample-call-only endpoints, whose request
 * is the simulator's), and the Idempotency-Key header of every endpoint that takes one.
 * @example limitedFields().map((f) => `${f.route.method} ${f.name}`) // ['POST connectorId', …]
 */
export function limitedFields(): LimitedField[] {
  const out: LimitedField[] = [];
  for (const route of interfaceRoutes()) {
    const stated = !route.fieldsNotShown && (route.kind ?? 'json') !== 'document';
    const values: [LimitedField['in'], string, ZodLike][] = [
      ...(stated
        ? Object.entries(shapeOf(route.body)).map(([n, s]) => ['body', n, s] as [LimitedField['in'], string, ZodLike])
        : []),
      ...(stated
        ? Object.entries(shapeOf(route.query)).map(([n, s]) => ['query', n, s] as [LimitedField['in'], string, ZodLike])
        : []),
      ...(route.idempotent
        ? [['header', 'Idempotency-Key', IdempotencyKey] as [LimitedField['in'], string, ZodLike]]
        : []),
    ];
    for (const [where, name, schema] of values) {
      const type = fieldType(schema);
      if (!limited(type)) continue;
      const cases = boundaryCases(type);
      // A descriptive name or a name bounded by length only (LIMITS marks them) takes any characters: a venue's too.
      if ((LIMITS as unknown as Record<string, { text?: string }>)[name]?.text !== undefined && type.type === 'string')
        cases.push({
          value: VENUE_NAME,
          valid: contractAccepts(type, VENUE_NAME),
          what: 'a venue name with letters beyond ASCII, spaces and punctuation',
          anyCharacters: true,
        });
      out.push({ route, in: where, name, type, required: !optional(schema), cases });
    }
  }
  return out;
}
