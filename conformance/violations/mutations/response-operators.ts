import { ENVIRONMENTS } from '../../../simulator/contract/environment.ts';
import { ERROR_TABLE, type ErrorCode } from '../../../simulator/contract/errors.ts';
import { ROUTES } from '../../../simulator/contract/route-table.ts';
import { echoPairs } from '../../rules/echo-rules.ts';
import { must } from '../../runner/invariant.ts';
import { errorCodeOf } from '../json-edit.ts';
import { constrainedFields, judgedRoutes } from './contract-fields.ts';
import { editAt, retyped } from './json-path.ts';
import { answerEdit } from './match.ts';
import type { Mutant, MutationOperator } from './types.ts';

const label = (f: { route: { id: string }; path: readonly string[] }) => `${f.route.id}:${f.path.join('.')}`;

/** Every required response field of the contract, left out of its route's answers. */
export const dropField: MutationOperator = {
  name: 'drop-field',
  description: 'a required response field is left out',
  mutants: () =>
    constrainedFields()
      .filter((f) => f.required)
      .map((f) =>
        answerEdit('drop-field', `drop ${label(f)}`, `${label(f)} is left out`, f.route, (b) =>
          editAt(b, f.path, (o, k) => delete o[k]),
        ),
      ),
};

/** Every response field of the contract, sent with another JSON type. */
export const retypeField: MutationOperator = {
  name: 'retype-field',
  description: 'a response field is sent with another JSON type',
  mutants: () =>
    constrainedFields().map((f) =>
      answerEdit('retype-field', `retype ${label(f)}`, `${label(f)} has another type`, f.route, (b) =>
        editAt(b, f.path, (o, k) => {
          o[k] = retyped(o[k]);
        }),
      ),
    ),
};

/** Every response field with a constraint beyond its type (enumeration, date-time, pattern, integer), outside it. */
export const outOfRange: MutationOperator = {
  name: 'out-of-range',
  description: 'a response field breaks its enumeration, format, pattern or integer constraint',
  mutants: () =>
    constrainedFields()
      .filter((f) => f.outOfRange !== undefined)
      .map((f) =>
        answerEdit(
          'out-of-range',
          `range ${label(f)}`,
          `${label(f)} is ${JSON.stringify(f.outOfRange)}`,
          f.route,
          (b) =>
            editAt(b, f.path, (o, k) => {
              o[k] = f.outOfRange;
            }),
        ),
      ),
};

/** The Meta fields every answer carries (Meta table): left out, retyped, out of range. */
export const metaFields: MutationOperator = {
  name: 'meta-field',
  description: 'a Meta field of every answer is left out, retyped or out of range',
  mutants: () =>
    (['requestId', 'version', 'at'] as const).flatMap((k) => [
      answerEdit('meta-field', `drop meta.${k}`, `meta.${k} is left out`, undefined, (b) => delete b.meta?.[k], 'any'),
      answerEdit(
        'meta-field',
        `retype meta.${k}`,
        `meta.${k} is a number`,
        undefined,
        (b) => {
          if (b.meta) b.meta[k] = 7;
        },
        'any',
      ),
      ...(k === 'at'
        ? [
            answerEdit(
              'meta-field',
              'range meta.at',
              'meta.at is not a date-time',
              undefined,
              (b) => {
                if (b.meta) b.meta.at = 'now';
              },
              'any',
            ),
          ]
        : []),
    ]),
};

/** A status the Errors table pairs with another code than `code`. */
function otherStatus(code: ErrorCode): number {
  const own = ERROR_TABLE[code].status;
  const codes = Object.keys(ERROR_TABLE) as ErrorCode[];
  const next = codes
    .slice(codes.indexOf(code) + 1)
    .concat(codes)
    .find((c) => ERROR_TABLE[c].status !== own);
  return ERROR_TABLE[must(next, 'the Errors table pairs more than one status')].status;
}

/** Every error code of the table, answered with another code's status. */
export const errorStatusSwap: MutationOperator = {
  name: 'error-status-swap',
  description: "an error code is answered with another code's status",
  mutants: () =>
    (Object.keys(ERROR_TABLE) as ErrorCode[]).map((code) => ({
      operator: 'error-status-swap',
      name: `status ${code} ${otherStatus(code)}`,
      description: `${code} is answered with ${otherStatus(code)} instead of ${ERROR_TABLE[code].status}`,
      section: 'Errors',
      async handle(req, next) {
        const res = await next(req);
        return errorCodeOf(res) === code ? { ...res, status: otherStatus(code) } : res;
      },
    })),
};

/** Another value of the same type: the next environment, a changed text, a list without its first item. */
function altered(v: unknown): unknown {
  if (typeof v === 'string') {
    const i = (ENVIRONMENTS as readonly string[]).indexOf(v);
    return i >= 0 ? ENVIRONMENTS[(i + 1) % ENVIRONMENTS.length] : `${v}-altered`;
  }
  if (Array.isArray(v))
    return v.length > 1 ? v.slice(1) : [...v, v[0]].map((x) => (typeof x === 'string' ? `${x}-altered` : x));
  return v;
}

/** Every request field the answer repeats (derived from the schemas), altered; meta.idempotencyKey on fresh calls and on replays. */
export const echoAlter: MutationOperator = {
  name: 'echo-alter',
  description: 'a request field the answer repeats comes back altered',
  mutants: (): Mutant[] => [
    ...judgedRoutes().flatMap((route) =>
      echoPairs(route).map((p) =>
        answerEdit(
          'echo-alter',
          `echo ${route.id}:${p.path.join('.')}`,
          `data.${p.path.join('.')} does not repeat ${p.field}`,
          route,
          (b) =>
            editAt(b, ['data', ...p.path], (o, k) => {
              const v = o[k];
              const itemKey = p.itemKey;
              o[k] =
                itemKey && Array.isArray(v)
                  ? v.map((x, i) =>
                      i === 0 && typeof x === 'object' && x
                        ? { ...x, [itemKey]: `${(x as Record<string, unknown>)[itemKey]}-altered` }
                        : x,
                    )
                  : altered(v);
            }),
        ),
      ),
    ),
    ...[false, true].flatMap((replays) =>
      ROUTES.filter((r) => r.idempotent && !r.addition).map((route) =>
        answerEdit(
          'echo-alter',
          `echo ${route.id}:meta.idempotencyKey${replays ? ' replay' : ''}`,
          `meta.idempotencyKey ${replays ? 'left out on replays' : 'altered on fresh calls'}`,
          route,
          (b) => {
            if (!b.meta || (b.meta.replayed === true) !== replays) return;
            if (replays) delete b.meta.idempotencyKey;
            else b.meta.idempotencyKey = `${String(b.meta.idempotencyKey ?? 'key')}-altered`;
          },
        ),
      ),
    ),
  ],
};

export const RESPONSE_OPERATORS = [dropField, retypeField, outOfRange, metaFields, errorStatusSwap, echoAlter];
