import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { verifyAuditRange } from '../../simulator/contract/audit-verify.ts';
import { CANONICALIZATION } from '../../simulator/contract/canonical-json.ts';
import type { Exchange } from '../client/http-client.ts';
import { defineCheck, type CheckContext } from '../runner/check.ts';
import { createLabelledConnection } from './support/connections.ts';

const AUDIT = 'GET /api/public/v1/audit-log (appears in a sample call only)' as const;
/** Entries the kit reads: enough to find its own recent changes among those of concurrent checks. */
const LIMIT = 50;

const auditPath = () => ROUTE_BY_ID.get('getAuditLog')!.path;
/**
 * The list of entries in an audit-log answer: data.entries (the simulator's name), else the one list in
 * data. The interface shows no field names, so any name is a legal choice.
 */
const entriesOf = (ex: Exchange): unknown[] | undefined => {
  const data = (ex.json as { data?: Record<string, unknown> } | undefined)?.data;
  if (!data || typeof data !== 'object') return undefined;
  if (Array.isArray(data.entries)) return data.entries;
  const lists = Object.values(data).filter(Array.isArray);
  return lists.length === 1 ? lists[0] : undefined;
};
const readLog = (ctx: CheckContext) => ctx.call('GET', auditPath(), { query: { limit: String(LIMIT) } });

export const integrity = defineCheck({
  name: 'audit.integrity',
  title: "the returned range of the audit log verifies against its proof (sha256 hash chain, the simulator's format)",
  // MUST: it judges only a proof that declares its format (else it skips); a broken chain is then no guess.
  severity: 'MUST',
  section: AUDIT,
  tags: ['audit', 'security'],
  mutating: false,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const ex = await readLog(ctx);
    ctx.require(ex.status === 200, { expected: `GET ${auditPath()}?limit=${LIMIT} answers 200`, exchange: ex });
    const entries = entriesOf(ex);
    if (entries?.length === 0) ctx.skip('the audit log is empty: nothing to verify yet');
    const proof = (ex.json as { data?: { proof?: unknown } } | undefined)?.data?.proof as
      | { algorithm?: unknown; canonicalization?: unknown }
      | undefined;
    // The interface shows no proof format: only an answer that declares the simulator's (sha256 over
    // RFC 8785 canonical JSON) can be recomputed here; any other format is the deployment's legal choice.
    if (proof?.algorithm !== 'sha256' || proof.canonicalization !== CANONICALIZATION)
      ctx.skip(
        `the proof does not declare the format this kit can recompute (algorithm sha256, canonicalization ${CANONICALIZATION}); the interface does not show the proof's format`,
      );
    const result = verifyAuditRange(entries, proof);
    ctx.expect.that(result.ok, {
      expected:
        'data.entries verify against data.proof (every hash recomputed, every link and the anchor and head checked)',
      observed: result.ok ? '' : `${result.reason}: ${result.message}`,
      exchange: ex,
    });
  },
});

interface AuditScenario {
  created: { id?: string; ex: Exchange }[];
  log: Exchange;
}

/** Two labelled connections created one after the other, then the log read: once per run. */
function auditScenario(ctx: CheckContext): Promise<AuditScenario> {
  return ctx.shared('audit-scenario', async () => {
    const created: AuditScenario['created'] = [];
    for (let i = 0; i < 2; i++) {
      const c = await createLabelledConnection(ctx, 'audit');
      created.push({ ex: c.ex, ...(c.id ? { id: c.id } : {}) });
    }
    return { created, log: await readLog(ctx) };
  });
}

/** Where in the returned entries each created connection is named (-1: nowhere). */
function positions(s: AuditScenario): number[] {
  const texts = (entriesOf(s.log) ?? []).map((e) => JSON.stringify(e));
  return s.created.map((c) => (c.id ? texts.findIndex((t) => t.includes(c.id!)) : -1));
}

export const recordsChange = defineCheck({
  name: 'audit.records-change',
  title: 'a change the kit makes shows up in the audit log (its connection id appears in an entry)',
  severity: 'MUST',
  section: AUDIT,
  tags: ['audit'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const s = await auditScenario(ctx);
    for (const c of s.created)
      ctx.require(c.id !== undefined, { expected: 'a labelled connection is created to be traced', exchange: c.ex });
    ctx.require(s.log.status === 200 && entriesOf(s.log) !== undefined, {
      expected: `GET ${auditPath()}?limit=${LIMIT} answers 200 with a list of entries`,
      exchange: s.log,
    });
    positions(s).forEach((at, i) => {
      ctx.expect.that(at >= 0, {
        expected: `the creation of connection ${s.created[i]!.id} is traceable in the ${LIMIT} newest entries`,
        observed: 'no entry names it',
        exchange: s.log,
      });
    });
  },
});

export const newestFirst = defineCheck({
  name: 'audit.newest-first',
  title: 'the audit log lists entries newest first and at most `limit` of them',
  severity: 'SHOULD',
  section: AUDIT,
  tags: ['audit'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const s = await auditScenario(ctx);
    const entries = entriesOf(s.log);
    if (!entries) ctx.skip('no list of entries (see audit.records-change)');
    ctx.expect.that(entries.length <= LIMIT, {
      expected: `?limit=${LIMIT} returns at most ${LIMIT} entries`,
      observed: `${entries.length} entries`,
      exchange: s.log,
    });
    const [older, newer] = positions(s);
    if (older! < 0 || newer! < 0) ctx.skip("the kit's changes are not both in the log (see audit.records-change)");
    ctx.expect.that(newer! < older!, {
      expected: "the kit's second change is listed before its first (newest first)",
      observed: `positions ${newer} and ${older}`,
      exchange: s.log,
    });
    const seqs = entries.map((e) => (e as { seq?: unknown }).seq);
    if (seqs.every((q) => typeof q === 'number')) {
      const unordered = (seqs as number[]).findIndex((q, i) => i > 0 && q >= (seqs[i - 1] as number));
      ctx.expect.that(unordered === -1, {
        expected: 'seq decreases from each entry to the next',
        observed: `entry ${unordered} has seq ${seqs[unordered]} after ${seqs[unordered - 1]}`,
        exchange: s.log,
      });
    }
  },
});

export const auditChecks = [integrity, recordsChange, newestFirst];
