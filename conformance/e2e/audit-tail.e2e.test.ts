// A log that shows only its newest `limit` entries, with no further page (a tail: totara's choice), read after
// other checks wrote so much that the kit's first audit connection scrolled off it. The official CI's run of
// session 38 failed totara this way under load (audit.order); a log of the newest entries newest first can lose
// the first connection altogether by the last read (audit.records-change). Neither is the deployment's fault.
import { expect, it } from 'vitest';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Core } from '../../simulator/index.ts';
import { auditChecks } from '../checks/audit.ts';
import { runConformance } from '../runner/run.ts';
import { editJson, jsonBodyOf } from '../violations/json-edit.ts';
import { httpTarget, noWait } from './targets.ts';

const ACTIVATION_MS = 60_000;
type Entry = Record<string, unknown>;

/**
 * The simulator behind a tail of `limit` entries in the given order, once the kit made its second audit
 * connection: `keep` says which entries (oldest first) are still on the page, other checks' changes fill the rest.
 * The sandbox clock moves half the activation delay after each of the first two audit creations, so the first
 * connection's activation falls between the second creation and the read. No entry carries its request id.
 */
async function tailTarget(
  order: 'oldest first' | 'newest first',
  keep: (oldestFirst: Entry[], ids: string[]) => Entry[],
) {
  let clock: { advance(ms: number): void } | undefined;
  const ids: string[] = [];
  const wrapCore = (core: Core): Core => ({
    ...core,
    async handle(req) {
      const res = await core.handle(req);
      const label = jsonBodyOf(req)?.scopeLabel;
      if (req.method === 'POST' && req.path === `${BASE_PATH}/connections` && /-audit-\d/.test(String(label))) {
        const id = (JSON.parse(res.body ?? '{}') as { data?: { id?: string } }).data?.id;
        if (id) ids.push(id);
        if (ids.length <= 2) clock?.advance(ACTIVATION_MS / 2);
      }
      if (req.method !== 'GET' || req.path !== `${BASE_PATH}/audit-log` || ids.length < 2) return res;
      const limit = Number(req.query.limit ?? 20);
      return editJson(res, (b) => {
        const data = b.data as { entries?: Entry[]; nextCursor?: unknown } | undefined;
        if (!Array.isArray(data?.entries)) return;
        const kept = keep([...data.entries].reverse(), ids).map(({ requestId: _, ...e }) => e);
        const first = Number(kept[0]?.seq ?? 0);
        const n = Math.max(0, limit - kept.length);
        const others = Array.from({ length: n }, (_, k) => ({
          ...kept[0],
          seq: first - n + k,
          target: `connection:con_other_${k}`,
        }));
        const page = [...others, ...kept];
        data.entries = order === 'oldest first' ? page : page.reverse();
        delete data.nextCursor;
      });
    },
  });
  const target = await httpTarget({ activationDelayMs: ACTIVATION_MS, wrapCore });
  clock = target.sandbox.state.clock;
  const run = async () => {
    try {
      const result = await runConformance({ ...target.kit, retry: noWait, checks: auditChecks });
      expect(ids.length).toBe(3);
      return (name: string) => result.results.find((r) => r.check.name === name);
    } finally {
      await target.close();
    }
  };
  return { run };
}

const named = (e: Entry, id: string | undefined) => JSON.stringify(e).includes(id ?? '-');

// [others…, creation 2, activation 1, creation 3]: positions there look newest first, the numbering grows.
it('audit.order does not judge an order from a full page the older creation may have scrolled off', async () => {
  const { run } = await tailTarget('oldest first', (entries, ids) =>
    entries.slice(entries.findIndex((e) => named(e, ids[0])) + 1),
  );
  const result = await run();
  expect(result('audit.order')?.notes).toContain('the audit log lists oldest first');
  expect(result('audit.order')?.failures).toEqual([]);
});

// Newest first, every entry naming the first connection gone by the last read: the read made right after its
// creation found it.
it('audit.records-change counts a change the read right after it found, though it left the newest page since', async () => {
  const { run } = await tailTarget('newest first', (entries, ids) => entries.filter((e) => !named(e, ids[0])));
  const result = await run();
  expect(result('audit.records-change')?.failures).toEqual([]);
  expect(result('audit.records-change')?.status).toBe('pass');
});
