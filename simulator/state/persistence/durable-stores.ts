import type { AuditEntry, AuditLog } from '../../audit/hash-chain.ts';
import { CANONICALIZATION } from '../../contract/canonical-json.ts';
import { verifyAuditRange } from '../../contract/audit-verify.ts';
import type { Persistence } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';

const AUDIT = 'audit:';
/** Logs are trimmed to their in-memory window every this many appends. */
const TRIM_EVERY = 1000;

/**
 * A chain read back from the data dir is verified before it is served: an entry edited on disk would
 * otherwise be handed out as intact (its listing carries a proof recomputed from the edited data).
 * The simulator refuses to start, naming tenant and seq, rather than serve a log it cannot vouch for.
 */
function checkStoredChain(tenant: string, entries: AuditEntry[], p: Persistence): void {
  const first = entries[0];
  const last = entries.at(-1);
  if (!first || !last) return;
  const result = verifyAuditRange(entries, {
    algorithm: 'sha256',
    canonicalization: CANONICALIZATION,
    fromSeq: first.seq,
    toSeq: last.seq,
    anchorPrevHash: first.prevHash,
    headHash: last.hash,
    chainHead: { seq: last.seq, hash: last.hash },
  });
  if (!result.ok)
    throw new PersistenceError(
      `${p.lastRead?.() ?? 'the data dir'}: the audit chain of tenant ${tenant} does not verify: ${result.reason}${result.seq !== undefined ? ` at seq ${result.seq}` : ''} (${result.message}); the data dir was edited or damaged. Restore it from a backup or remove it to start fresh.`,
    );
}

/** An audit log that writes every entry through, verifies each tenant's chain at start and restores it. */
export function durableAudit(audit: AuditLog, p: Persistence, maxEntries: number): AuditLog {
  if (!p.durable) return audit;
  for (const log of p.logNames(AUDIT)) {
    const entries = [...p.logEntries<AuditEntry>(log)].slice(-maxEntries);
    checkStoredChain(log.slice(AUDIT.length), entries, p);
    audit.restore(log.slice(AUDIT.length), entries);
  }
  return {
    ...audit,
    append(tenant, input) {
      const e = audit.append(tenant, input);
      p.append(AUDIT + tenant, e.seq, e);
      if (e.seq % TRIM_EVERY === 0) p.trimLog(AUDIT + tenant, e.seq - maxEntries + 1);
      return e;
    },
    clear() {
      audit.clear();
      p.deleteLogs(AUDIT);
    },
  };
}
