import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import { entryHash } from './audit-entry-hash.ts';
import { integrity } from './audit-integrity.ts';
import { chainLinks } from './audit-links.ts';
import { auditPagesAgree } from './audit-pages.ts';
import { proofPresent } from './audit-proof.ts';
import { auditSignature } from './audit-signature.ts';
import {
  type AuditRead,
  auditPageSize,
  auditPath,
  entriesOf,
  namesId,
  numberingOf,
  positionsOf,
  readLogFinding,
} from './support/audit-log.ts';
import { type ChangeSeen, ordersOfRead } from './support/audit-order.ts';
import { otherTenantTraced } from './support/audit-other-tenant.ts';
import { createLabelledConnection } from './support/connections.ts';
import { readEventually } from './support/eventually.ts';
import { EARLIER, earlierVersionPlace } from './support/places.ts';

const AUDIT = 'GET /api/public/v1/audit-log (appears in a sample call only)' as const;

interface AuditScenario {
  /** The kit's changes: the first two one after the other (audit.order's), then one under the earlier version. */
  created: { id?: string; ex: Exchange; alt: boolean; version?: string }[];
  /** The log read from its first page until both changes were found or no further page was offered. */
  read: AuditRead;
  /**
   * The read made once the first creation was in the log, before the second: under load, other checks' changes
   * can push it off a log that shows only its newest entries (a tail of `limit`) by the last read.
   */
  firstRead?: AuditRead;
  log: Exchange;
}

/** Two labelled connections created one after the other, then the log read (paged as offered): once per run. */
function auditScenario(ctx: CheckContext): Promise<AuditScenario> {
  return ctx.shared('audit-scenario', async () => {
    const created: AuditScenario['created'] = [];
    let firstRead: AuditRead | undefined;
    const found = (entries: unknown[]) => {
      const text = JSON.stringify(entries);
      return created.every((c) => !c.id || namesId(text, c.id));
    };
    // Read again while the log lags the creations (a log served from a replica, or written by a queue), within
    // listConsistencyWaitMs; a log read from its start that stops short of its end is read from its last page.
    const readLog = () => readLogFinding(ctx, found);
    const readFound = () => readEventually(ctx, readLog, (r) => r.pages[0]?.status !== 200 || found(r.entries));
    // The earlier version's place is asked first (shared, it may wait on other checks' calls), so the three changes
    // are made close together and the log's newest page still holds them all.
    const [earlier] = await earlierVersionPlace(ctx);
    // The second at the alternate address when there is one: the same interface, the tenant's changes alike.
    // It is made once the first is in the log: a log written by a queue may record two changes made a moment
    // apart in either order, and the order the kit judges is the one it made them in.
    for (let i = 0; i < 2; i++) {
      const alt = i === 1 && ctx.target.altBaseUrl !== undefined;
      const c = await createLabelledConnection(ctx, 'audit', alt ? { base: 'alt' } : {});
      created.push({ ex: c.ex, alt, ...(c.id ? { id: c.id } : {}) });
      if (i === 0 && c.id) firstRead = await readFound();
    }
    // Under the earlier published version where the target serves it: "traceable changes of the tenant" are
    // the tenant's changes whichever version a caller names (only a creation that was made is looked for).
    if (earlier) {
      const c = await createLabelledConnection(ctx, 'audit', { headers: earlier.call.headers ?? {} });
      if (c.id) created.push({ ex: c.ex, alt: false, id: c.id, version: EARLIER });
    }
    const read = await readFound();
    return {
      created,
      read,
      ...(firstRead ? { firstRead } : {}),
      log: must(read.pages.at(-1), 'readAuditLog reads at least one page'),
    };
  });
}

/** The i-th created connection as the read shows it: where it is named, and the request id of its creation. */
function seen(s: AuditScenario, i: number): ChangeSeen {
  const c = s.created[i];
  return { positions: positions(s)[i] ?? [], requestId: c?.ex.requestId };
}

/** Where in the entries read each created connection is named (none: nowhere). */
function positions(s: AuditScenario): number[][] {
  return s.created.map(({ id }) => (id ? positionsOf(s.read.entries, id, 'connection') : []));
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
    const limit = await auditPageSize(ctx);
    const s = await auditScenario(ctx);
    const first = must(s.read.pages[0], 'readAuditLog reads at least one page');
    for (const c of s.created)
      ctx.require(c.id !== undefined, { expected: 'a labelled connection is created to be traced', exchange: c.ex });
    ctx.require(first.status === 200 && entriesOf(first) !== undefined, {
      expected: `GET ${auditPath()}?limit=${limit} answers 200 with a list of entries`,
      exchange: first,
    });
    // A change the read right after it found is traced, though later writes pushed it off the newest page.
    const at = positions(s).map((p, i) => {
      const id = s.created[i]?.id;
      return p.length || !id || !s.firstRead ? p : positionsOf(s.firstRead.entries, id, 'connection');
    });
    const numbering = numberingOf(entriesOf(first) ?? []);
    // A log listed oldest first whose paging the kit cannot discover keeps the newest entries out of
    // reach: the interface shows no further parameters, so the kit cannot judge rather than fail.
    if (
      at.some((p) => p.length === 0) &&
      s.read.pages.length === 1 &&
      numbering?.direction === 'up' &&
      (entriesOf(first)?.length ?? 0) >= limit
    )
      ctx.skip(
        `the audit log lists its entries oldest first (${numbering.field} grows) and offers no further page the kit can discover (no Link rel=next, no next… field): the kit's newest changes are out of reach of ?limit=${limit}`,
      );
    // A log that still offers pages where the kit stopped reading (its page budget, or a next page it could
    // not reach) may hold the changes further on: out of the kit's reach, not missing (an oldest-first log
    // capped at a few entries a page, after many runs).
    if (at.some((p) => p.length === 0) && !s.read.exhausted)
      ctx.skip(
        `the kit's changes are not on the ${s.read.pages.length} page${s.read.pages.length === 1 ? '' : 's'} of the audit log it read (${s.read.entries.length} entries${numbering ? `, ${numbering.field} ${numbering.direction === 'up' ? 'growing: oldest first' : numbering.direction === 'down' ? 'falling: newest first' : 'in no order'}` : ''}) and the log offers more: out of the kit's reach, not judged`,
      );
    at.forEach((p, i) => {
      ctx.expect.that(p.length > 0, {
        expected: `the creation of connection ${s.created[i]?.id}${s.created[i]?.alt ? ' (made at the alternate base URL)' : ''}${s.created[i]?.version ? ` (made with Service-Version ${s.created[i]?.version})` : ''} is traceable in the audit log (read ${s.read.pages.length} page${s.read.pages.length === 1 ? '' : 's'}, ${s.read.entries.length} entries, asking for ${limit} a page)`,
        observed: 'no entry names it',
        exchange: s.log,
      });
    });
    // Where an entry carries the creation's request id (the interface shows no entry fields: found, not
    // assumed), that entry is the creation's trace: it names the connection it made.
    for (const c of s.created) {
      const requestId = (c.ex.json as { meta?: { requestId?: unknown } } | undefined)?.meta?.requestId;
      if (typeof requestId !== 'string' || requestId.length < 6 || !c.id) continue;
      const own = s.read.entries.filter(
        (e) => !!e && typeof e === 'object' && Object.values(e as Record<string, unknown>).includes(requestId),
      );
      if (!own.length) continue;
      const id = c.id;
      ctx.expect.that(
        own.some((e) => JSON.stringify(e).includes(id)),
        {
          expected: `the audit entry of the creation's request (${requestId}) names connection ${id}, the change it traces`,
          observed: `${own.length} entr${own.length === 1 ? 'y carries' : 'ies carry'} that request id, none naming the connection: ${JSON.stringify(own[0]).slice(0, 200)}`,
          exchange: s.log,
        },
      );
    }
    // "limit (number of entries)": a page of one, once the log has entries, is not empty. More than one is
    // noted, not failed: the limit's bounds are not shown (a deployment may keep a smallest page).
    const one = await ctx.call('GET', auditPath(), { query: { limit: '1' } });
    const listed = entriesOf(one);
    if (one.status === 200 && listed) {
      ctx.expect.that(listed.length > 0, {
        expected: `GET ${auditPath()}?limit=1 lists an entry ("limit: number of entries"; the log holds the kit's changes)`,
        observed: 'no entries',
        exchange: one,
      });
      if (listed.length > 1) ctx.note(`GET ${auditPath()}?limit=1 listed ${listed.length} entries (a smallest page)`);
    } else ctx.note(`GET ${auditPath()}?limit=1 answered ${one.status}: a page of one is not judged`);
    // And a page of two, the log holding at least the kit's two changes, holds two (not one short of its limit).
    if (s.read.entries.length >= 2) {
      const two = await ctx.call('GET', auditPath(), { query: { limit: '2' } });
      const got = entriesOf(two);
      if (two.status === 200 && got)
        ctx.expect.that(got.length >= 2, {
          expected: `GET ${auditPath()}?limit=2 lists two entries ("limit: number of entries"; the log holds ${s.read.entries.length} or more)`,
          observed: `${got.length} entr${got.length === 1 ? 'y' : 'ies'}`,
          exchange: two,
        });
    }
    await otherTenantTraced(ctx, limit);
  },
});

export const auditOrder = defineCheck({
  name: 'audit.order',
  title:
    'the audit log lists entries in one order, newest or oldest first (discovered from two changes of the kit), at most `limit` per page',
  severity: 'SHOULD',
  section: AUDIT,
  tags: ['audit'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const limit = await auditPageSize(ctx);
    const s = await auditScenario(ctx);
    for (const page of s.read.pages) {
      const entries = entriesOf(page);
      if (!entries) ctx.skip('no list of entries (see audit.records-change)');
      ctx.expect.that(entries.length <= limit, {
        expected: `?limit=${limit} returns at most ${limit} entries per page`,
        observed: `${entries.length} entries`,
        exchange: page,
      });
    }
    // The kit's two changes are in the log by now, so a limit of 1 is smaller than what it holds
    // (a limit of limit may not be, early in a run against a fresh deployment).
    const one = await ctx.call('GET', auditPath(), { query: { limit: '1' } });
    const few = one.status === 200 ? entriesOf(one) : undefined;
    if (few)
      ctx.expect.that(few.length <= 1, {
        expected: '?limit=1 returns at most 1 entry ("limit (number of entries)")',
        observed: `${few.length} entries`,
        exchange: one,
      });
    const [older = [], newer = []] = positions(s);
    if (older.length === 0 || newer.length === 0)
      ctx.skip("the kit's changes are not both in the log (see audit.records-change)");
    // The interface does not say which end comes first: the kit's own two changes show it (ordersOfRead: by the
    // creations' request ids where entries carry them, else by where each is named when the read reaches the
    // log's oldest entry; a read that may lack the older creation leaves both orders possible, and then only a
    // numbering in no consistent order is judged).
    const possible = ordersOfRead(s.read, limit, seen(s, 0), seen(s, 1));
    const numbering = numberingOf(s.read.entries);
    const direction = (o: string) => (o === 'newest first' ? 'down' : 'up');
    const order = possible.find((o) => numbering?.direction === direction(o)) ?? must(possible[0], 'one order');
    const listed = possible.length > 1 && numbering?.direction !== direction(order) ? possible.join(' or ') : order;
    ctx.note(`the audit log lists ${listed}${s.read.pages.length > 1 ? `, over ${s.read.pages.length} pages` : ''}`);
    if (!numbering?.sequenceName) return;
    const expected = direction(order);
    ctx.expect.that(numbering.direction === expected, {
      expected: `${numbering.field} ${expected === 'down' ? 'decreases' : 'increases'} from each entry to the next (the log lists ${order})`,
      observed:
        numbering.direction === 'none'
          ? `${numbering.field} is in no consistent order`
          : `${numbering.field} ${numbering.direction === 'up' ? 'increases' : 'decreases'} against the order of the kit's changes`,
      exchange: s.log,
    });
  },
});

export const auditChecks = [
  integrity,
  entryHash,
  auditSignature,
  chainLinks,
  proofPresent,
  recordsChange,
  auditOrder,
  auditPagesAgree,
];
