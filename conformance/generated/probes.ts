import fc from 'fast-check';
import type { ErrorCode } from '../../simulator/contract/errors.ts';
import { bodyProbes, FIELD_LIST_IS_SCHEMA } from './body-probes.ts';
import { classComplement, draw, matching, matchingArb, patternLength, textOf, wrongTypeOf } from './draw.ts';
import { accepted, lengthVariants, refused, type Value, type Variant, wrappedVariants } from './probe-variants.ts';
import type { FieldType, Operation, RequestField } from './request-fields.ts';

/** One generated request of an operation: a valid call with one value changed. */
export interface Probe {
  /** <field>.<kind>[.<detail>], unique within the operation, e.g. scopeLabel.length-121. */
  id: string;
  field: string;
  /**
   * What the interface demands of the answer: accepted by validation, refused with this code, or either
   * (where the interface leaves it to the deployment: no 5xx, and a refusal with this code).
   */
  expect: { accepted: true } | { accepted: false; code: ErrorCode } | { accepted: 'either'; code: ErrorCode };
  /** The rule in words, for the failure report. */
  rule: string;
  body?: Record<string, unknown>;
  /** A body sent as this text instead of `body` as JSON (its Content-Type among the headers). */
  rawBody?: string;
  query: Record<string, string>;
  headers: Record<string, string>;
}

/** A valid call of the operation: the starting point every probe changes one value of. */
export interface ValidCall {
  body?: Record<string, unknown>;
  query: Record<string, string>;
  headers: Record<string, string>;
}

/**
 * Whether the contract gives the operation anything to probe: a required value, a body field, a
 * constrained one, or a free-text query filter (its long value).
 */
export function hasProbes(op: Operation): boolean {
  // A string filter without a limit gets its long value (LONG_QUERY_VALUE).
  const constrained = (t: FieldType, where: RequestField['in']) =>
    t.type === 'string'
      ? t.min !== undefined || t.max !== undefined || t.pattern !== undefined || where === 'query'
      : t.type !== 'other';
  return (
    op.route.id in FIELD_LIST_IS_SCHEMA ||
    op.fields.some((f) => f.required || f.in === 'body' || constrained(f.type, f.in))
  );
}

/** The length of a long value for a query filter the interface sets no limit for. */
export const LONG_QUERY_VALUE = 400;

/** A character outside ASCII (two bytes in UTF-8, one UTF-16 unit) for the length probes. */
export const WIDE = '\u00e9';

/** How many characters of a pattern's complement one run tries (drawn by the seed from the whole class). */
export const COMPLEMENT_DRAWS = 6;

/** The variants of one value: what the contract says about its type, bounds and pattern. */
function variants(f: RequestField, valid: unknown, seed: number, marker: string, creates: boolean): Variant[] {
  const name = `${f.in}.${f.name}`;
  const t: FieldType = f.type;
  const out: Variant[] = [];
  if (f.required)
    out.push(refused('missing', { omit: true }, 'left out', f.in === 'header' ? 'idempotency_required' : undefined));
  // An optional field sent as null: refused as "wrong data type", or read as left out (its default) by decoders
  // that treat null as absent (Swift's decodeIfPresent, pydantic's Optional[...] = None): the interface says neither.
  if (f.in === 'body')
    out.push(
      f.required
        ? refused('null', { value: null }, 'null')
        : { ...refused('null', { value: null }, 'null'), either: true },
    );
  const text = (n: number) => textOf(n, seed, `${name}.${n}`, marker);
  switch (t.type) {
    case 'string':
      if (f.in === 'body') {
        out.push(refused('wrong-type', { value: wrongTypeOf('string', seed, name) }, 'not a string'));
        // A wrong type that still carries a valid value: a lenient reader takes the value out of it.
        if (typeof valid === 'string') out.push(...wrappedVariants(valid, t));
      }
      if (t.pattern) {
        const len = patternLength(t.pattern);
        // Accepted values start with the run's own letters, so two runs never send the same key.
        const salt = marker.replace(/[^A-Za-z0-9]/g, '').slice(-8);
        const ok = (n: number) => (salt + textOf(n, seed, `${name}.${n}`)).slice(0, n);
        if (len) out.push(...lengthVariants(len, ok, 'a value'));
        for (const [i, drawn] of matching(t.pattern, seed, `${name}.match`, 2).entries())
          out.push(
            accepted(
              `pattern-${i}`,
              (salt + drawn).slice(0, len?.max ?? drawn.length + 8),
              `a drawn value matching ${t.pattern.source}`,
            ),
          );
        const complement = classComplement(t.pattern);
        const picked =
          draw(
            fc.shuffledSubarray(complement, { minLength: COMPLEMENT_DRAWS, maxLength: COMPLEMENT_DRAWS }),
            seed,
            `${name}.complement`,
          )[0] ?? [];
        for (const c of picked) {
          const base = ok(len?.min ?? 8);
          // Inside the value: a header's leading or trailing space would be trimmed in transit.
          const at = 1 + (c.charCodeAt(0) % (base.length - 1));
          out.push(
            refused(
              `char-${c.charCodeAt(0)}`,
              { value: base.slice(0, at) + c + base.slice(at) },
              `with ${JSON.stringify(c)}, outside ${t.pattern.source}`,
            ),
          );
        }
      } else {
        out.push(...lengthVariants(t, text, 'a text'));
        // A filter without a stated limit, long (a search box pasted into): found or refused 400, the statuses
        // an endpoint may answer; a gateway's own 414 for the long query line is none of them.
        if (f.in === 'query' && t.max === undefined)
          out.push({
            ...refused(
              `long-${LONG_QUERY_VALUE}`,
              { value: text(LONG_QUERY_VALUE) },
              `of ${LONG_QUERY_VALUE} characters (no limit shown)`,
            ),
            either: true,
          });
        // Lengths count characters, not bytes: the maximum again in two-byte UTF-8 characters.
        if (t.max !== undefined && t.max > marker.length + f.name.length + 8)
          out.push(
            accepted(
              `length-${t.max}-wide`,
              `${marker}${f.name}-${WIDE.repeat(t.max)}`.slice(0, t.max),
              `of the maximum length ${t.max} in characters outside ASCII (${WIDE}: two bytes each in UTF-8)`,
            ),
          );
      }
      break;
    case 'enum': {
      out.push(refused('wrong-type', { value: wrongTypeOf('enum', seed, name) }, 'not a string'));
      // A value of the enumeration inside an array or an object, or a number: a lenient reader takes the first.
      if (f.in === 'body' && typeof valid === 'string') out.push(...wrappedVariants(valid, {}));
      // A value's position in the enumeration (an enum stored as its ordinal, Java's and C#'s default).
      if (f.in === 'body')
        out.push(
          refused('ordinal', { value: t.values.length - 1 }, `the number ${t.values.length - 1} (a value's position)`),
        );
      const [outside] = draw(
        fc.string({ minLength: 1, maxLength: 16 }).filter((s) => !t.values.includes(s)),
        seed,
        `${name}.outside`,
      );
      out.push(refused('outside', { value: outside }, `not one of ${t.values.join(', ')}`));
      // A value of the enumeration in other letter case is outside it too (a store folding case took it).
      const [cased] = draw(fc.constantFrom(...t.values), seed, `${name}.cased`);
      const folded = cased ? `${cased.charAt(0).toUpperCase()}${cased.slice(1)}` : undefined;
      if (folded && !t.values.includes(folded))
        out.push(
          refused('other-case', { value: folded }, `${cased} in other letter case, not one of ${t.values.join(', ')}`),
        );
      // Every value passes validation. A creating call gets one per run, drawn by the seed (runs cover
      // them all; each creates a connection); a call that only reads or decides gets each of them.
      const [v] = draw(fc.constantFrom(...t.values), seed, `${name}.value`);
      for (const value of creates ? [v] : t.values) out.push(accepted(`value-${value}`, value, `the value ${value}`));
      break;
    }
    case 'integer': {
      const [word] = draw(matchingArb(/^[a-z]{1,8}$/), seed, `${name}.word`);
      out.push(refused('wrong-type', { value: word }, 'not a number'));
      out.push(refused('fraction', { value: '1.5' }, 'not a whole number'));
      // Numbers a lenient parser (JavaScript's Number) reads, but no integer written as one: hexadecimal and
      // exponent notation (the interface's "integer" is a decimal number, as query text and as JSON).
      out.push(refused('hex', { value: '0x1' }, 'in hexadecimal notation (0x1), not a decimal integer'));
      out.push(refused('exponent', { value: '1e1' }, 'in exponent notation (1e1), not a decimal integer'));
      if (t.min !== undefined) {
        out.push(accepted(`min-${t.min}`, String(t.min), `the minimum ${t.min}`));
        out.push(refused(`min-${t.min - 1}`, { value: String(t.min - 1) }, `one below the minimum ${t.min}`));
      }
      break;
    }
    case 'array': {
      out.push(refused('wrong-type', { value: wrongTypeOf('array', seed, name) }, 'not an array'));
      const item = Array.isArray(valid) ? valid[0] : undefined;
      const items = (n: number) => Array.from({ length: n }, () => item);
      out.push(
        ...lengthVariants(t, items, 'a list').map((v) => ({ ...v, what: v.what.replace('length', 'number of items') })),
      );
      // The list written as one comma-separated string (what a form or a query string would carry).
      if (typeof item === 'string')
        out.push(refused('comma-string', { value: `${item},${item}` }, 'a comma-separated string, not an array'));
      out.push(refused('item-null', { value: [null] }, 'with a null item'));
      out.push(
        refused(
          'item-wrong-type',
          { value: [wrongTypeOf('string', seed, `${name}.item`)] },
          'with an item that is not a string',
        ),
      );
      // The valid items in other shapes a lenient reader flattens or reads the keys of: each inside a list of its
      // own, and the list as an object keyed by them ("array of string": both are a wrong data type).
      if (typeof item === 'string') {
        out.push(
          refused('items-nested', { value: [[item]] }, 'with its item inside a list of its own (a nested list)'),
        );
        out.push(refused('as-object', { value: { [item]: true } }, 'as an object keyed by a valid item, not a list'));
      }
      // Every item is held to the item rules, not only the first: one valid item, then a bad one.
      if (item !== undefined && (t.max === undefined || t.max >= 2))
        out.push(refused('later-item-null', { value: [item, null] }, 'with a valid first item and a null second one'));
      if (t.item.type === 'string' && t.item.max !== undefined && item !== undefined && (t.max ?? 2) >= 2)
        out.push(
          refused(
            `later-item-length-${t.item.max + 1}`,
            { value: [item, text(t.item.max + 1)] },
            `with a valid first item and a second one longer than ${t.item.max}`,
          ),
        );
      // An item as the answer's own entry shape (an object holding a valid value), not a string.
      if (typeof item === 'string')
        out.push(
          refused(
            'item-object',
            { value: [{ id: item, [f.name.replace(/s$/, '')]: item }] },
            'with an item that is an object holding a valid value (the items are strings)',
          ),
        );
      if (t.item.type === 'string' && t.item.max !== undefined)
        out.push(
          refused(
            `item-length-${t.item.max + 1}`,
            { value: [text(t.item.max + 1)] },
            `with an item one longer than ${t.item.max}`,
          ),
        );
      break;
    }
    default:
      break;
  }
  return out;
}

function applied(call: ValidCall, f: RequestField, v: Value): ValidCall {
  const next: ValidCall = { ...call, query: { ...call.query }, headers: { ...call.headers } };
  if (f.in === 'body') {
    const body = { ...call.body };
    if (v.omit) delete body[f.name];
    else body[f.name] = v.value;
    next.body = body;
  } else {
    const target = f.in === 'query' ? next.query : next.headers;
    if (v.omit) delete target[f.name];
    else target[f.name] = String(v.value);
  }
  return next;
}

/**
 * Every probe of one operation, drawn by `seed`: per request value missing, null, of a wrong type,
 * each limit at the boundary (accepted) and one past (refused), the pattern's complement and, where
 * the field list is the schema, unknown fields. `valid(probeId)` gives a fresh valid call per probe
 * (a new Idempotency-Key and scope label each), `marker` prefixes generated texts so they can be found.
 * @example probesOf(op, 42, () => validCall, 'ncs-probe').length
 */
export function probesOf(op: Operation, seed: number, valid: (probeId: string) => ValidCall, marker: string): Probe[] {
  const probes: Probe[] = [];
  const where = `${op.route.method} ${op.route.path}`;
  for (const f of op.fields) {
    const sample = valid('sample');
    const current = f.in === 'body' ? sample.body?.[f.name] : undefined;
    for (const v of variants(f, current, seed, marker, op.route.idempotent === true)) {
      const id = `${f.name}.${v.kind}`;
      const call = applied(valid(id), f, v.v);
      const label = `${where} with ${f.in === 'header' ? 'header' : f.in === 'query' ? 'query parameter' : 'field'} ${f.name} ${v.what}`;
      probes.push({
        id,
        field: f.name,
        expect: v.accepted
          ? { accepted: true }
          : { accepted: v.either ? 'either' : false, code: v.code ?? 'invalid_request' },
        rule: v.accepted
          ? `${label} passes validation (not 400, no 5xx)`
          : `${label} answers ${v.code === 'idempotency_required' ? '428 idempotency_required' : '400 invalid_request'}${v.either ? `, or is ${v.kind === 'null' ? 'taken as left out' : 'accepted'} (a status the Endpoints table lists, never a 5xx)` : ''}`,
        ...(call.body ? { body: call.body } : {}),
        query: call.query,
        headers: call.headers,
      });
    }
  }
  probes.push(...bodyProbes(op, seed, valid, marker));
  return probes;
}
