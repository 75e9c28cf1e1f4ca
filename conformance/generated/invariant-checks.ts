import { isDeepStrictEqual } from 'node:util';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import {
  freshKey,
  listConnections,
  listedEventually,
  postConnection,
  requireCreationBase,
} from '../checks/support/connections.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';

/** Same-key creations sent at once (enough to race a check-then-insert). */
export const CONCURRENT = 4;

const data = (ex: Exchange) => (ex.json as { data?: Record<string, unknown> } | undefined)?.data;
const meta = (ex: Exchange) => (ex.json as { meta?: Record<string, unknown> } | undefined)?.meta ?? {};

/**
 * What a refused call could have written of a connection: its identity and creation time and the fields
 * a creation sets (derived from the contract's request body). The rest may move by itself with
 * transitions the interface leaves open: state, nextStep, and whatever a deployment adds beside them
 * (a revision, a stateChangedAt: "additional fields may be present").
 */
const WRITTEN_BY_A_CREATION = [
  'id',
  'createdAt',
  ...Object.keys((ROUTE_BY_ID.get('createConnection')?.body as { shape?: object } | undefined)?.shape ?? {}),
];
function settled(c: Record<string, unknown> | undefined) {
  if (!c) return c;
  return Object.fromEntries(WRITTEN_BY_A_CREATION.filter((k) => k in c).map((k) => [k, c[k]]));
}

/** Still 429 after the interface's retry policy: the deployment's limit, not a verdict on the rule. */
export function skipIfLimited(ctx: CheckContext, ex: Exchange): void {
  if (ex.status === 429)
    ctx.skip(`rate limited (429) after the retry policy: ${ex.method} ${new URL(ex.url).pathname} not judged`);
}

/** The tenant's connection with this id as GET /connections lists it, and how many carry `label`. */
async function lookup(ctx: CheckContext, id: unknown, label: string) {
  // A list may show a creation a moment after it was answered (listConsistencyWaitMs).
  const { ex, connections } = await listedEventually(ctx, (cs) => cs.some((c) => c.id === id));
  return {
    ex,
    entry: connections.find((c) => c.id === id),
    labelled: connections.filter((c) => c.scopeLabel === label).length,
  };
}

export const replayEqualsOriginal = defineCheck({
  name: 'generated.replay-equals-original',
  title: 'a replay (same key, same content) answers with the status and data of the original, meta.replayed true',
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['generated', 'idempotency', 'invariant'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const body = { ...(await requireCreationBase(ctx)), scopeLabel: ctx.label('replay') };
    const key = freshKey(ctx);
    const first = await postConnection(ctx, body, { key });
    skipIfLimited(ctx, first);
    ctx.require(first.status === 200, { expected: 'a valid creation answers 200', exchange: first });
    const again = await postConnection(ctx, body, { key });
    ctx.expect.that(again.status === first.status && isDeepStrictEqual(data(again), data(first)), {
      expected: `the replay answers ${first.status} with the original data (the same response again)`,
      observed: `${again.status}, data ${String(JSON.stringify(data(again))).slice(0, 200)}; original ${String(JSON.stringify(data(first))).slice(0, 200)}`,
      exchange: again,
    });
    ctx.expect.that(meta(again).replayed === true && meta(again).idempotencyKey === key, {
      expected: `the replay carries meta.replayed true and meta.idempotencyKey ${key}`,
      observed: `meta.replayed ${JSON.stringify(meta(again).replayed)}, meta.idempotencyKey ${JSON.stringify(meta(again).idempotencyKey)}`,
      exchange: again,
    });
    const seen = await lookup(ctx, data(first)?.id, body.scopeLabel);
    // A list read still rate limited (429) after the retry policy lists nothing: no verdict on it.
    if (seen.ex.status !== 200) return ctx.note(`GET /connections answered ${seen.ex.status}: the count not judged`);
    ctx.expect.that(seen.labelled === 1, {
      expected: 'the original and its replay made exactly one connection',
      observed: `${seen.labelled} connections carry the label`,
      exchange: seen.ex,
    });
  },
});

export const refusalChangesNothing = defineCheck({
  name: 'generated.refusal-changes-nothing',
  title:
    'after 409 idempotency_conflict and 428 idempotency_required nothing changed: the original stands, nothing new was written',
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['generated', 'idempotency', 'invariant'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    const original = { ...base, scopeLabel: ctx.label('original') };
    const key = freshKey(ctx);
    const created = await postConnection(ctx, original, { key });
    skipIfLimited(ctx, created);
    ctx.require(created.status === 200, { expected: 'a valid creation answers 200', exchange: created });
    const before = await lookup(ctx, data(created)?.id, original.scopeLabel);
    const changed = { ...original, scopeLabel: ctx.label('conflict') };
    const conflict = await postConnection(ctx, changed, { key });
    ctx.expect.errorCode(
      conflict,
      'idempotency_conflict',
      'the same key with other content answers 409 idempotency_conflict',
    );
    const keyless = { ...original, scopeLabel: ctx.label('keyless') };
    const missing = await postConnection(ctx, keyless, { key: false });
    ctx.expect.errorCode(missing, 'idempotency_required', 'a creation without a key answers 428 idempotency_required');
    const { ex, connections } = await listConnections(ctx);
    const after = connections.find((c) => c.id === data(created)?.id);
    // A list read still rate limited (429) after the retry policy shows no connection: no verdict on it.
    if (before.ex.status !== 200 || ex.status !== 200)
      ctx.note(
        `GET /connections answered ${before.ex.status} before and ${ex.status} after: the original not compared`,
      );
    else
      ctx.expect.that(isDeepStrictEqual(settled(after), settled(before.entry)), {
        expected:
          'the original connection is unchanged after the refused calls: its id, createdAt and every field a creation sets (what moves with its state, whose transitions are not shown, may change)',
        // A connection not listed at all is undefined, which JSON.stringify leaves undefined: shown as null.
        observed: `before ${String(JSON.stringify(settled(before.entry) ?? null)).slice(0, 300)}; after ${String(JSON.stringify(settled(after) ?? null)).slice(0, 300)}`,
        exchange: ex,
      });
    const written = connections.filter(
      (c) => c.scopeLabel === changed.scopeLabel || c.scopeLabel === keyless.scopeLabel,
    );
    ctx.expect.that(written.length === 0, {
      expected: 'a refused call (409, 428) writes no connection',
      observed: `written: ${written.map((c) => String(JSON.stringify(c)).slice(0, 160)).join('; ')}`,
      exchange: ex,
    });
    const replay = await postConnection(ctx, original, { key });
    ctx.expect.that(replay.status === 200 && isDeepStrictEqual(data(replay), data(created)), {
      expected: 'after the conflict the key still replays the original answer',
      observed: `${replay.status} ${String(JSON.stringify(data(replay))).slice(0, 200)}`,
      exchange: replay,
    });
  },
});

export const concurrentSameKey = defineCheck({
  name: 'generated.concurrent-same-key',
  title: `${CONCURRENT} creations with the same key and content sent at once make exactly one connection, and every success is the same one`,
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['generated', 'idempotency', 'invariant', 'concurrency'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const body = { ...(await requireCreationBase(ctx)), scopeLabel: ctx.label('race') };
    const key = freshKey(ctx);
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => postConnection(ctx, body, { key })));
    for (const a of answers) skipIfLimited(ctx, a);
    const ok = answers.filter((a) => a.status === 200);
    const ids = new Set(ok.map((a) => data(a)?.id));
    ctx.expect.that(ok.length > 0 && ids.size === 1, {
      expected: 'every 200 answer names the same connection',
      observed: `${ok.length} of ${CONCURRENT} answered 200 with ids ${[...ids].map((i) => JSON.stringify(i)).join(', ')}`,
      exchange: ok[1] ?? must(answers[0], `${CONCURRENT} creations were sent`),
    });
    const odd = answers.find((a) => a.status !== 200 && a.status !== 409);
    ctx.expect.that(odd === undefined, {
      expected: 'a racing duplicate answers 200 (the replay) or 409, nothing else',
      exchange: odd ?? must(answers[0], `${CONCURRENT} creations were sent`),
    });
    const seen = await lookup(ctx, [...ids][0], body.scopeLabel);
    ctx.expect.that(seen.labelled === 1, {
      expected: `${CONCURRENT} same-key creations at once make exactly one connection`,
      observed: `${seen.labelled} connections carry the label`,
      exchange: seen.ex,
    });
  },
});

export const invariantChecks = [replayEqualsOriginal, refusalChangesNothing, concurrentSameKey];
