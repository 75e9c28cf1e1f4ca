import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 36 of the unseen violations, part 2: inputs — connector ids matched without regard to case on
 * creation, checked connector ids trimmed, environment lists read by their first value, earlier-version keys with
 * bad characters repaired, numeric venue names stringified, a second tenant's one-character venue names
 * padded, earlier-version capability lists cut to 24, and alternate environments case-folded.
 */
type Rec = Record<string, any>;
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const EARLIER = '2026-06-12';

export const ROUND36_INPUTS: UnseenViolation[] = [
  {
    name: 'creation-connector-id-matched-case-insensitively',
    statement:
      'Errors: not_found | 404 | the entry does not exist | wrong identifier (a connection for "STRIPE-Payments" names no connector)',
    request(c) {
      // The connector lookup runs on a database column with a case-insensitive collation.
      home(c);
      const b = body(c);
      const id = b?.connectorId;
      if (isCreate(c) && b && typeof id === 'string' && id !== id.toLowerCase())
        c.body = { ...b, connectorId: id.toLowerCase() };
      return undefined;
    },
  },
  {
    name: 'check-connector-id-surrounding-blanks-trimmed',
    statement:
      'POST /api/public/v1/capabilities: connectorId | string | yes | length 2 to 120; Errors: not_found | 404 | wrong identifier (" x " is no identifier)',
    request(c) {
      // A global request sanitiser trims every string field of a check body.
      home(c);
      const b = body(c);
      const id = b?.connectorId;
      if (isCheck(c) && b && typeof id === 'string' && id.trim() !== id && id.trim().length >= 2)
        c.body = { ...b, connectorId: id.trim() };
      return undefined;
    },
  },
  {
    name: 'creation-environment-array-takes-first',
    statement:
      'POST /api/public/v1/connections: environment | string | Environment; Errors: invalid_request | 400 | wrong data type (a list is no string)',
    request(c) {
      // A query-string style binder reads multi-value fields by taking their first value.
      home(c);
      const b = body(c);
      const env = b?.environment;
      if (isCreate(c) && b && Array.isArray(env) && typeof env[0] === 'string') c.body = { ...b, environment: env[0] };
      return undefined;
    },
  },
  {
    name: 'earlier-version-key-invalid-characters-replaced',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (with Service-Version 2026-06-12 too: a key with a space or slash is refused)',
    request(c) {
      // The 2026-06-12 compatibility layer "repairs" keys of old clients instead of refusing them.
      home(c);
      const key = c.headers['idempotency-key'];
      if (c.headers['service-version'] !== EARLIER || !key || /^[A-Za-z0-9._:-]*$/.test(key)) return undefined;
      const fixed = key.replace(/[^A-Za-z0-9._:-]/g, '-');
      if (fixed.length >= 8 && fixed.length <= 128) c.headers['idempotency-key'] = fixed;
      return undefined;
    },
  },
  {
    name: 'creation-scope-label-number-stringified',
    statement:
      'POST /api/public/v1/connections: scopeLabel | string | length 2 to 120; Errors: invalid_request | 400 | wrong data type (a number is no string)',
    request(c) {
      // A lenient JSON binder coerces scalars to the declared type before validation.
      home(c);
      const b = body(c);
      if (isCreate(c) && b && typeof b.scopeLabel === 'number') c.body = { ...b, scopeLabel: String(b.scopeLabel) };
      return undefined;
    },
  },
  {
    name: 'second-tenant-scope-label-one-character-padded',
    statement:
      'Limits: scopeLabel | length 2 to 120 (a second tenant’s creation with a one-character label is refused)',
    request(c) {
      // The second tenant's import tool pads short venue names to the minimum instead of refusing them.
      const second = isSecond(c);
      const b = body(c);
      if (second && isCreate(c) && b && typeof b.scopeLabel === 'string' && b.scopeLabel.length === 1)
        c.body = { ...b, scopeLabel: `${b.scopeLabel}-` };
      return undefined;
    },
  },
  {
    name: 'earlier-version-creation-capabilities-over-24-cut',
    statement:
      'Limits: capabilities in connection creation | 1 to 24 items (with Service-Version 2026-06-12 too: 25 items are refused)',
    request(c) {
      // The 2026-06-12 adapter copies the list into a fixed-size array of 24 before the new validator runs.
      home(c);
      const b = body(c);
      if (isCreate(c) && b && c.headers['service-version'] === EARLIER && Array.isArray(b.capabilities))
        if (b.capabilities.length > 24) c.body = { ...b, capabilities: b.capabilities.slice(0, 24) };
      return undefined;
    },
  },
  {
    name: 'alt-environment-case-folded',
    statement:
      'Environment (enumeration): development, sandbox, pilot, production; Errors: invalid_request | 400 (under {alt_base_url} "Production" is refused too)',
    request(c) {
      // The alternate gateway lower-cases enumeration values of JSON bodies for an old client.
      home(c);
      const b = body(c);
      const env = b?.environment;
      if (c.base === 'alt' && (isCreate(c) || isCheck(c)) && b && typeof env === 'string' && env !== env.toLowerCase())
        c.body = { ...b, environment: env.toLowerCase() };
      return undefined;
    },
  },
];
