import type { Redactor } from './redact.ts';

/** Field names whose string values are secrets a deployment hands out (signing keys, tokens, passwords). */
const SECRET_FIELD = /secret|password|passphrase|access_?token|refresh_?token|api_?key|private_?key|signing_?key/i;
/** Shorter values are flags or labels, not secrets (and would redact ordinary words). */
const MIN_LENGTH = 8;

/** signingSecret -> NCS_SIGNING_SECRET: the variable a reproducing curl reads it from. */
const envName = (field: string) =>
  `NCS_${field
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase()}`;

/**
 * Registers with the redactor every secret an answer hands out (a field named like a secret holding a
 * string), so no report prints a secret the run created, e.g. its temporary receiver's signing key.
 * They are redacted, not leak-checked: the answer that creates one shows it legitimately.
 * @example registerCreatedSecrets({ data: { signingSecret: 'whsec_…' } }, redactor)
 */
export function registerCreatedSecrets(json: unknown, redactor: Redactor, depth = 0, within?: string): void {
  // `within`: the name of the object `json` is the value of (its fields may inherit the secret's name).
  if (depth > 8 || json === null || typeof json !== 'object') return;
  for (const [key, value] of fieldsOf(json)) {
    // A key's identifier (signingKeyId, key_id) names the key: it is not the key.
    const named = SECRET_FIELD.test(key) && !/id$/i.test(key);
    // One word: a text named for the key (signingKeyNotice: "Store it now") is not the key.
    if (typeof value === 'string' && value.length >= MIN_LENGTH && named && !/\s/.test(value))
      redactor.add(value, envName(key), { leakChecked: false });
    // Under an object named like a secret, a generic field holds it (`secret: { value: 'spk_…' }`, `signing:
    // { key: … }`): a one-word value of key length, not its id, age, algorithm or note.
    else if (typeof value === 'string' && within !== undefined && inheritsSecret(within, key, value))
      redactor.add(value, envName(`${within}_${key}`), { leakChecked: false });
    else if (typeof value === 'object') registerCreatedSecrets(value, redactor, depth + 1, key);
  }
}

/**
 * The fields of an object, or an array's items by index, one at a time: a hostile answer's array of 500,000
 * numbers is walked without a second array of its entries (Object.entries held about 40 MB for it).
 */
function* fieldsOf(json: object): Generator<[string, unknown]> {
  if (!Array.isArray(json)) {
    yield* Object.entries(json);
    return;
  }
  for (let i = 0; i < json.length; i++) {
    const value: unknown = json[i];
    if (typeof value === 'string' || (value !== null && typeof value === 'object')) yield [String(i), value];
  }
}

/** Shorter values under a secret's object are its algorithm or kind (HMAC-SHA256), not the secret. */
const INHERITED_MIN_LENGTH = 16;
const inheritsSecret = (parent: string, key: string, value: string) =>
  value.length >= INHERITED_MIN_LENGTH &&
  !/\s/.test(value) &&
  !/^\d{4}-\d{2}-\d{2}T/.test(value) &&
  !/^[a-z]+:\/\//i.test(value) &&
  !/id$|at$|time$|date$|algorithm|type$|kind$/i.test(key) &&
  (SECRET_FIELD.test(parent) || SECRET_FIELD.test(`${parent}_${key}`));
