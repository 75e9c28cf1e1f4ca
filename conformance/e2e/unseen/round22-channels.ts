import { createHmac } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 22 of the unseen violations, part 3: webhook signatures and the audit log — the header's t
 * rounded while the MAC used the floored second, a MAC over the base64 of the body, a MAC over a
 * newline-terminated text, the alternate address's registration answer without the signing key,
 * creations made with issued keys missing from the audit log, and audit entries stamped with the time
 * of the read.
 */
type Rec = Record<string, any>;
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const mac = (key: string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');

export const ROUND22_CHANNELS: UnseenViolation[] = [
  {
    name: 'signature-t-one-second-after-signed-t',
    statement:
      'Webhooks: the header value has the form t=<unix-seconds>,v1=<hex-signature> ... over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // The MAC is computed with Math.floor(ms / 1000) but the header writes Math.ceil of the same clock
      // reading: the t the receiver sees is one second after the one that was signed.
      return `t=${t + 1},v1=${mac(secret, `${t}.${body}`)}`;
    },
  },
  {
    name: 'signature-over-base64-body',
    statement: 'Webhooks: The signature is an HMAC ... over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // The signer is shared with a queue transport that carries bodies base64-encoded, and signs that form.
      return `t=${t},v1=${mac(secret, `${t}.${Buffer.from(body, 'utf8').toString('base64')}`)}`;
    },
  },
  {
    name: 'signed-text-newline-terminated',
    statement: 'Webhooks: The signature is an HMAC ... over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // The signed text is built with a template ending in a line break (copied from a shell example).
      return `t=${t},v1=${mac(secret, `${t}.${body}\n`)}`;
    },
  },
  {
    name: 'alt-webhook-registration-lacks-signing-key',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response and must be stored at once',
    answer(c, a) {
      // The alternate address's gateway redacts every response field whose name contains "secret", so a
      // receiver registered there never learns its signing key.
      if (c.base !== 'alt' || c.method !== 'POST' || c.path !== P('/webhooks') || a.status !== 200) return;
      const d = a.json.data as Rec | undefined;
      if (!d) return;
      for (const k of Object.keys(d)) if (/secret|signingkey/i.test(k)) delete d[k];
    },
  },
  {
    name: 'audit-misses-creations-with-issued-keys',
    statement: 'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity',
    answer(c, a) {
      // Creations whose key came from POST /idempotency-keys run through a fast path that skips the
      // audit writer.
      const issued = (c.memory.get('r22-issued') as Set<string> | undefined) ?? new Set<string>();
      const hidden = (c.memory.get('r22-hidden') as Set<string> | undefined) ?? new Set<string>();
      c.memory.set('r22-issued', issued);
      c.memory.set('r22-hidden', hidden);
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && a.status === 200) {
        const key = a.json.data?.idempotencyKey;
        if (typeof key === 'string') issued.add(key);
        return;
      }
      if (isCreate(c) && a.status === 200 && issued.has(c.headers['idempotency-key'] ?? '')) {
        const id = a.json.data?.id;
        if (typeof id === 'string') hidden.add(id);
        return;
      }
      const entries = a.json.data?.entries as Rec[] | undefined;
      if (!isAudit(c) || a.status !== 200 || !Array.isArray(entries) || hidden.size === 0) return;
      const kept = entries.filter((e) => ![...hidden].some((id) => String(e.target ?? '').includes(id)));
      if (kept.length === entries.length) return;
      a.json.data.entries = kept;
      if (typeof a.json.data.count === 'number') a.json.data.count = kept.length;
    },
  },
  {
    name: 'audit-entry-at-is-read-time',
    statement: 'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity',
    answer(c, a) {
      // The entry view maps `at` from the row's updated_at, which the read itself touches: every entry
      // shows the time of the read instead of the time of its change (and no longer matches its hash).
      const entries = a.json.data?.entries as Rec[] | undefined;
      const now = a.json.meta?.at;
      if (!isAudit(c) || a.status !== 200 || !Array.isArray(entries) || typeof now !== 'string') return;
      for (const e of entries) if (typeof e.at === 'string') e.at = now;
    },
  },
];
