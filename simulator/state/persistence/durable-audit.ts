// The audit chains with `--data-dir` (or a shared sandbox's snapshots): every entry written through,
// each tenant's chain verified and put back at start. Log names and records as before: `audit:<tenant>`,
// one entry per seq.
import { verifyAuditRange } from '../../contract/audit-verify.ts';
import { CANONICALIZATION } from '../../contract/canonical-json.ts';
import type { AuditEntry, AuditRepository } from '../ports/audit.ts';
import type { Persistence } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';
import { after, afterLoad, kept, loadEach, logWriteThrough } from './write-through.ts';

const AUDIT = 'audit:';

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

/**
 * An audit repository whose appends also go to `p` in the same synchronous step, with every stored
 * chain verified and loaded at start. Without durable persistence the repository itself comes back.
 * @example const repository = durableAudit(createAuditStore(), persistence, AUDIT_DEFAULTS.maxEntriesPerTenant);
 */
export function durableAudit<R extends AuditRepository>(repository: R, p: Persistence, maxEntries: number): R {
  if (!p.durable) return repository;
  // Every stored chain is verified before any is served: a damaged one stops the start at once.
  const chains = p.logNames(AUDIT).map((log) => {
    const tenant = log.slice(AUDIT.length);
    const entries = [...p.logEntries<AuditEntry>(log)].slice(-maxEntries);
    checkStoredChain(tenant, entries, p);
    return { tenant, entries };
  });
  const log = logWriteThrough(p, AUDIT, maxEntries);
  const ready = afterLoad(loadEach(chains, (c) => repository.load(c.tenant, c.entries, maxEntries)));
  return {
    ...repository,
    append(tenant: string, e: AuditEntry, keep: number) {
      return ready(() =>
        kept(repository.append(tenant, e, keep), () => {
          log.append(tenant, e.seq, e);
        }),
      );
    },
    clear() {
      return ready(() => after(repository.clear(), log.clear));
    },
  };
}
