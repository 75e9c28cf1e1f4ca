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
export function registerCreatedSecrets(json: unknown, redactor: Redactor, depth = 0): void {
  if (depth > 8 || json === null || typeof json !== 'object') return;
  for (const [key, value] of Object.entries(json)) {
    // A key's identifier (signingKeyId, key_id) names the key: it is not the key.
    if (typeof value === 'string' && value.length >= MIN_LENGTH && SECRET_FIELD.test(key) && !/id$/i.test(key))
      redactor.add(value, envName(key), { leakChecked: false });
    else if (typeof value === 'object') registerCreatedSecrets(value, redactor, depth + 1);
  }
}
