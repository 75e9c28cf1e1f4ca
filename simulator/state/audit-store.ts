import { RingBuffer } from '../lib/ring-buffer.ts';
import type { AuditEntry, AuditRepository, AuditWindow } from './ports/audit.ts';

/**
 * The memory repository of the audit chains: a ring buffer per tenant, so a chain holds at most `keep`
 * entries (held entries have consecutive seqs, so a seq's position is an index).
 * @example const store = createAuditStore(); store.append('harbour-kitchens', entry, 100_000);
 */
export function createAuditStore() {
  const chains = new Map<string, RingBuffer<AuditEntry>>();
  const chain = (tenant: string, keep: number) => {
    let c = chains.get(tenant);
    if (!c) {
      c = new RingBuffer<AuditEntry>(keep);
      chains.set(tenant, c);
    }
    return c;
  };
  return {
    append(tenant: string, entry: AuditEntry, keep: number) {
      const c = chain(tenant, keep);
      if (entry.seq !== (c.newest()?.seq ?? 0) + 1) return false;
      c.push(entry);
      return true;
    },
    load(tenant: string, entries: readonly AuditEntry[], keep: number) {
      const c = chain(tenant, keep);
      for (const e of entries) {
        if (e.seq <= (c.newest()?.seq ?? 0)) continue;
        c.push(Object.freeze({ ...e }));
      }
    },
    newest: (tenant: string) => chains.get(tenant)?.newest(),
    window(tenant: string, before: number | undefined, limit: number): AuditWindow {
      const c = chains.get(tenant);
      if (!c) return { entries: [], oldest: undefined, newest: undefined };
      const oldest = c.oldest();
      const oldestSeq = oldest?.seq ?? 1;
      const end = before === undefined ? c.size : Math.min(c.size, Math.max(0, before - oldestSeq));
      return { entries: c.slice(Math.max(0, end - limit), end), oldest, newest: c.newest() };
    },
    size: (tenant: string) => chains.get(tenant)?.size ?? 0,
    tenants: () => [...chains.keys()],
    clear() {
      chains.clear();
    },
  } satisfies AuditRepository;
}

/** The memory audit repository. */
export type AuditStore = ReturnType<typeof createAuditStore>;
