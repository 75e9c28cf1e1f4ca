import { type AuditEntry, GENESIS_HASH, hashAuditEntry } from '../../../simulator/contract/audit-hash.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

// What the round-8 lists share: an audit log whose chain a deployment keeps differently (entries left
// out or added) yet still proves consistently, and an event stream read message by message. Kept
// apart so each list file holds only its violations.

/** What the caller asked of an audit page, before the hook read the whole chain instead. */
const asked = new WeakMap<ProxyCall, { limit: number; before?: number }>();
const DEFAULT_LIMIT = 50;
const WHOLE = 500;
const number = (v: string | null) => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined);

/**
 * An audit log kept by a deployment whose chain holds other entries than the simulator's: `edit`
 * gets the tenant's whole chain (oldest first) and returns the chain the deployment really keeps.
 * The result is chained, numbered and proved afresh, then paged as the caller asked (newest first,
 * `limit`, `before`), so only what the log contains is wrong, never its proof.
 */
export function auditKeptAs(
  edit: (c: ProxyCall, chain: AuditEntry[]) => AuditEntry[],
): Pick<UnseenViolation, 'request' | 'answer'> {
  return {
    request(c) {
      if (c.method !== 'GET' || c.path !== P('/audit-log')) return undefined;
      const limit = number(c.search.get('limit'));
      const before = number(c.search.get('before'));
      asked.set(c, { limit: limit ?? DEFAULT_LIMIT, ...(before !== undefined ? { before } : {}) });
      c.search.set('limit', String(WHOLE));
      c.search.delete('before');
      return undefined;
    },
    answer(c, a) {
      const ask = asked.get(c);
      const d = a.json.data;
      if (!ask || a.status !== 200 || !d || !Array.isArray(d.entries)) return;
      const held = [...(d.entries as AuditEntry[])].reverse();
      const anchor = held[0]?.prevHash ?? GENESIS_HASH;
      let seq = (held[0]?.seq ?? 1) - 1;
      let prevHash = anchor;
      const chain = edit(c, held).map((e) => {
        seq += 1;
        const { hash: _old, ...rest } = { ...e, seq, prevHash };
        const entry = { ...rest, hash: hashAuditEntry(rest) };
        prevHash = entry.hash;
        return entry;
      });
      const newestFirst = chain.reverse();
      const page = newestFirst.filter((e) => ask.before === undefined || e.seq < ask.before).slice(0, ask.limit);
      const head = newestFirst[0];
      const newest = page[0];
      const oldest = page[page.length - 1];
      d.entries = page;
      d.count = page.length;
      d.proof = {
        ...d.proof,
        fromSeq: oldest?.seq ?? chain[chain.length - 1]?.seq ?? seq + 1,
        toSeq: newest?.seq ?? (oldest?.seq ?? seq + 1) - 1,
        anchorPrevHash: oldest?.prevHash ?? anchor,
        headHash: newest?.hash ?? anchor,
        chainHead: head ? { seq: head.seq, hash: head.hash } : { seq: 0, hash: GENESIS_HASH },
      };
    },
  };
}

/** Per stream call: the lines of the message not yet complete. */
const partial = new WeakMap<ProxyCall, string[]>();

/**
 * A stream hook that sees whole messages (id, event, data lines up to the blank line) instead of the
 * chunks they arrive in: `edit` returns the message's lines to send, or none to drop it.
 */
export function perMessage(edit: (c: ProxyCall, message: string[]) => string[]) {
  return (c: ProxyCall, chunk: string) => {
    const lines = [...(partial.get(c) ?? []), ...chunk.split('\n')];
    const rest = lines.pop() ?? '';
    let out = '';
    let message: string[] = [];
    for (const line of lines) {
      if (line !== '') message.push(line);
      else {
        const kept = edit(c, message);
        if (kept.length) out += `${kept.join('\n')}\n\n`;
        message = [];
      }
    }
    partial.set(c, rest === '' ? message : [...message, rest]);
    return out;
  };
}

/** The call's meta.requestId, for an answer that has one. */
export const requestIdOf = (a: ProxyAnswer) =>
  typeof a.json.meta?.requestId === 'string' ? a.json.meta.requestId : '';
