// Where the webhook creation answer carries the signing key. The interface says only that the key "is
// issued exactly once in the response" ("Response fields: not shown"), so the kit reads the place the
// deployment profile declares (webhookSecretField: a field of data, or a dotted path under it), else
// the simulator's field, else the one field of the answer named like a secret or a key.

type Json = Record<string, unknown>;

/** A field name that says it holds a secret or a key (not the idempotency key the call itself sent). */
const KEY_NAME = /secret|key/i;
const NOT_A_SIGNING_KEY = /idempotency/i;
/** Shorter strings are labels or flags, not keys (the simulator's are 40-odd characters). */
const MIN_KEY_LENGTH = 16;
/** How deep the kit looks into the answer's data for the key. */
const MAX_DEPTH = 4;

/** The value at a dotted path under `data` (`credentials.signingKey`), if any. */
export function valueAt(data: unknown, path: string): unknown {
  let at: unknown = data;
  for (const k of path.split('.')) at = at && typeof at === 'object' ? (at as Json)[k] : undefined;
  return at;
}

/** `data` without the field at a dotted path (a copy; the rest unchanged), e.g. to compare a replay that leaves the key out. */
export function withoutPath(data: Json | undefined, path: string | undefined): Json {
  if (!data || !path) return { ...data };
  const [head = '', ...rest] = path.split('.');
  const { [head]: inner, ...others } = data;
  if (rest.length === 0 || !inner || typeof inner !== 'object' || Array.isArray(inner)) return others;
  return { ...others, [head]: withoutPath(inner as Json, rest.join('.')) };
}

/**
 * The dotted paths of `data` holding one of `secrets` (the values the run knows as secrets, the signing key
 * among them wherever an answer put it) or a value named like a key: what a replay may leave out or mask.
 * @example secretPaths({ signing: { key: 'whsec_1', keyId: 'k1' } }, ['whsec_1']) // ['signing.key']
 */
export function secretPaths(data: unknown, secrets: readonly string[]): string[] {
  const known = new Set(secrets.filter((s) => s.length >= MIN_KEY_LENGTH));
  return stringFields(data, (path, value) => known.has(value) || keyLike(path, value) || aboutTheKey(path)).map(
    (f) => f.path,
  );
}

/**
 * A text named for the key itself (`signingKeyNotice`, `secretHint`), not its id: a replay that withholds the
 * key may say so there ("shown in the first answer only"), so it may differ too.
 */
const aboutTheKey = (path: string) => {
  const name = path.split('.').at(-1) ?? '';
  return KEY_NAME.test(name) && !NOT_A_SIGNING_KEY.test(path) && !/id$/i.test(name);
};

/** Every string of `data` (any name) with its dotted path, `filter` deciding which count. */
function stringFields(
  data: unknown,
  filter: (path: string, value: string) => boolean,
  prefix = '',
  depth = 0,
): { path: string; value: string }[] {
  if (depth > MAX_DEPTH || !data || typeof data !== 'object' || Array.isArray(data)) return [];
  return Object.entries(data as Json).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') return filter(path, v) ? [{ path, value: v }] : [];
    return stringFields(v, filter, path, depth + 1);
  });
}

/** A value that can be a key: long, one word, not a time or an address (a note, a date, a URL are not keys). */
const keyShaped = (value: string) =>
  value.length >= MIN_KEY_LENGTH &&
  !/\s/.test(value) &&
  !/^\d{4}-\d{2}-\d{2}T/.test(value) &&
  !/^[a-z]+:\/\//i.test(value);
/** A name for the key itself, not its identifier, age or expiry (signingKeyId, secretCreatedAt). */
const NOT_THE_KEY = /id$|at$|time$|date$/i;

/**
 * A key-shaped value named like a key: by its own field (`signingKey`) or, under an object named like
 * one, by a generic field (`secret.value`, `signingKey.current`: the answer's fields are not shown).
 * @example keyLike('secret.value', 'spk_0123456789abcdef') // true
 */
export function keyLike(path: string, value: string): boolean {
  const [name = '', parent] = path.split('.').reverse();
  if (!keyShaped(value) || NOT_THE_KEY.test(name) || NOT_A_SIGNING_KEY.test(path)) return false;
  return KEY_NAME.test(name) || (parent !== undefined && KEY_NAME.test(parent));
}

/** What the deliveries the kit received tell about the key. */
export interface KeyProof {
  /** Whether a delivery carrying a signature of the interface's form arrived (else nothing can be verified). */
  signed: boolean;
  /** Whether `value` is the key a delivery's signature was made with. */
  verifies(value: string): boolean;
  /** The creation answer's headers: the key "is issued ... in the response", which has headers too. */
  headers?: Readonly<Record<string, string>>;
}

export type SigningKey =
  | { found: true; secret: string; path: string; how: 'declared' | 'default' | 'verified' | 'discovered' }
  | { found: false; path: string; declared: boolean; absent: boolean; why: string };

/**
 * The signing key of a creation answer's `data`: at the declared path; at the default field; the value
 * of the answer (any field, or a header) that verifies the signature of a delivery the kit received;
 * the single field named like a key. Not found: `absent` when a signed delivery proves that no value of
 * the answer is its key (a failure), else why the kit cannot tell (a skip, unless declared).
 * @example signingKeyOf({ id: 'wh_1', credentials: { signingKey: 'whsec_…' } }, 'signingSecret', false) // discovered at credentials.signingKey
 */
export function signingKeyOf(data: unknown, field: string, declared: boolean, proof?: KeyProof): SigningKey {
  const at = valueAt(data, field);
  if (typeof at === 'string' && at.length > 0)
    return { found: true, secret: at, path: field, how: declared ? 'declared' : 'default' };
  if (declared) return { found: false, path: field, declared, absent: true, why: `data.${field} is absent or empty` };
  const values = [
    ...stringFields(data, () => true),
    ...Object.entries(proof?.headers ?? {}).map(([name, value]) => ({ path: `(header ${name})`, value })),
  ];
  const verified = proof?.signed ? values.find((v) => proof.verifies(v.value)) : undefined;
  if (verified) return { found: true, secret: verified.value, path: verified.path, how: 'verified' };
  const candidates = stringFields(data, keyLike);
  const [only] = candidates;
  if (only && candidates.length === 1) return { found: true, secret: only.value, path: only.path, how: 'discovered' };
  // A signed delivery that no value of the answer verifies: the key that signs was not issued in it.
  const provenAbsent = candidates.length === 0 && proof?.signed === true;
  return {
    found: false,
    path: field,
    declared,
    absent: provenAbsent,
    why: provenAbsent
      ? `the answer has no data.${field}, no field named like a secret or key, and none of its values or headers verifies the signature of the delivery the kit received`
      : candidates.length === 0
        ? `the answer has no data.${field} and no other field named like a secret or key`
        : `the answer has no data.${field} and several fields that could be the key (${candidates.map((c) => c.path).join(', ')})`,
  };
}

/**
 * The value at a path `signingKeyOf` found a key at, in another creation answer of the same deployment:
 * a dotted path under `data`, or `(header name)` for a key the answer sent as a header.
 * @example keyAtPath({ secret: { value: 'spk_…' } }, {}, 'secret.value') // 'spk_…'
 */
export function keyAtPath(data: unknown, headers: Readonly<Record<string, string>>, path: string): string | undefined {
  const header = /^\(header (.+)\)$/.exec(path)?.[1];
  const at = header === undefined ? valueAt(data, path) : headers[header.toLowerCase()];
  return typeof at === 'string' && at.length > 0 ? at : undefined;
}
