// What "the same key" and "the same content" mean, and how long "the same response again" lasts: a key is
// compared whole (every character the pattern allows is part of it), JSON content is compared as JSON
// (members in another order are the same content), and a replay at the end of the run still returns the
// first answer (a creation with several capabilities, in an order no sort would give, whose state the
// deployment may have moved on meanwhile).
import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { jsonDiff } from '../runner/json-diff.ts';
import {
  CONNECTIONS_PATH,
  type CreationBase,
  dataIdOf,
  freshKey,
  listConnections,
  postConnection,
  requireCreationBase,
  severalCapabilitiesBase,
} from './support/connections.ts';

const dataOf = (ex: Exchange) => (ex.json as { data?: unknown } | undefined)?.data;
const replayedOf = (ex: Exchange) => (ex.json as { meta?: { replayed?: unknown } } | undefined)?.meta?.replayed;

/** How long the late replay waits for the connection's listed state to move on before it replays anyway. */
const STATE_WAIT_MS = 3000;

export const keyComparedWhole = defineCheck({
  name: 'idempotency.key-compared-whole',
  title:
    'Idempotency-Keys that differ only in their last character (after a dot, underscore, colon and hyphen), or by a hyphen or dot after it, are different keys: separate creations, none a replay or a conflict of another',
  severity: 'MUST',
  section: 'Limits',
  tags: ['idempotency', 'limits'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    // Every separator the pattern allows before the one differing character: a store that cuts a key at
    // any of them, or compares a prefix of it, sees one key.
    const stem = `${ctx.label('whole')}.a_b:c-`.slice(0, 126);
    const made: Exchange[] = [];
    // And the first key with a hyphen or dot after it: a store that trims trailing punctuation sees the first.
    const lasts = ['1', '2', '1-', '1.'];
    for (const last of lasts) {
      const body = { ...base, scopeLabel: ctx.label('whole') };
      made.push(await postConnection(ctx, body, { key: `${stem}${last}` }));
    }
    const [first, second] = made as [Exchange, Exchange];
    ctx.require(first.status === 200, {
      expected: `POST /connections with Idempotency-Key ${stem}1 answers 200`,
      exchange: first,
    });
    ctx.expect.that(second.status === 200 && replayedOf(second) !== true, {
      expected: `POST /connections with Idempotency-Key ${stem}2 (another key) answers 200, not replayed`,
      observed: `${second.status}${replayedOf(second) === true ? ', meta.replayed true' : ''}`,
      exchange: second,
    });
    const ids = made.map(dataIdOf);
    for (const [i, ex] of made.entries()) {
      if (i < 2) continue;
      ctx.expect.that(ex.status === 200 && replayedOf(ex) !== true, {
        expected: `POST /connections with Idempotency-Key ${stem}${lasts[i]} (another key than ${stem}1) answers 200, not replayed`,
        observed: `${ex.status}${replayedOf(ex) === true ? ', meta.replayed true' : ''}`,
        exchange: ex,
      });
    }
    const named = ids.filter((id) => id !== undefined);
    if (ids[1] !== undefined)
      ctx.expect.that(new Set(named).size === named.length, {
        expected: `the ${lasts.length} keys created ${lasts.length} connections`,
        observed: `the answers name ${new Set(named).size} connection(s): ${named.join(', ')}`,
        exchange: second,
      });
  },
});

/** `value` as JSON text with every object's members in reverse order and spaces after the separators. */
function reordered(value: unknown): string {
  const flip = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(flip)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>)
              .reverse()
              .map(([k, x]) => [k, flip(x)]),
          )
        : v;
  return JSON.stringify(flip(value), null, 1);
}

/** The run's creation for the replay checks: several capabilities when the catalog allows it, made once. */
function replayCreation(ctx: CheckContext) {
  return ctx.shared('idempotency-replay-creation', async () => {
    const several = await severalCapabilitiesBase(ctx);
    if (several) {
      const key = freshKey(ctx);
      const body = { ...several, scopeLabel: ctx.label('replay-later') };
      const ex = await postConnection(ctx, body, { key });
      // Capabilities allowed one by one may still be refused together (a deployment's own rule): one then.
      if (ex.status === 200) return { key, body, ex, several: true };
    }
    const base: CreationBase = await requireCreationBase(ctx);
    const key = freshKey(ctx);
    const body = { ...base, scopeLabel: ctx.label('replay-later') };
    const ex = await postConnection(ctx, body, { key });
    return { key, body, ex, several: false };
  });
}

export const replayReordered = defineCheck({
  name: 'idempotency.replay-reordered',
  title:
    'the same key with the same JSON content written anew (members in another order, other spacing) replays the first answer, as the content is the same',
  severity: 'SHOULD',
  section: 'POST /api/public/v1/connections',
  tags: ['idempotency'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const first = await replayCreation(ctx);
    ctx.require(first.ex.status === 200, { expected: 'a valid POST /connections answers 200', exchange: first.ex });
    const again = await ctx.call('POST', CONNECTIONS_PATH(), {
      body: reordered(first.body),
      headers: { 'content-type': 'application/json', 'Idempotency-Key': first.key },
    });
    ctx.expect.that(again.status === 200 && isDeepStrictEqual(dataOf(again), dataOf(first.ex)), {
      expected:
        'the body sent again with its members in reverse order (the same JSON content) under the same key replays the first answer',
      observed: again.status === 200 ? 'another answer' : `${again.status}`,
      exchange: again,
      ...(again.status === 200 ? { diff: jsonDiff(dataOf(first.ex), dataOf(again)) } : {}),
    });
  },
});

export const replayLate = defineCheck({
  name: 'idempotency.replay-late',
  title:
    "the same key with the same content at the run's end returns the first answer unchanged (capabilities in their order, the state and nextStep of the moment it was made), whatever the connection did since",
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['idempotency'],
  mutating: true,
  requires: ['token'],
  // After the other checks: the connection had the run's length to move on.
  judgesRun: true,
  async run(ctx: CheckContext) {
    const first = await replayCreation(ctx);
    ctx.require(first.ex.status === 200, { expected: 'a valid POST /connections answers 200', exchange: first.ex });
    const id = dataIdOf(first.ex);
    const madeState = (dataOf(first.ex) as { state?: unknown } | undefined)?.state;
    // Give a state change a moment to show in the list (it is what a replay must not show).
    let listed: unknown;
    for (const until = Date.now() + STATE_WAIT_MS; Date.now() < until; ) {
      const { connections } = await listConnections(ctx);
      listed = (connections.find((c) => c.id === id) as { state?: unknown } | undefined)?.state;
      if (listed !== undefined && listed !== madeState) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const again = await postConnection(ctx, first.body, { key: first.key });
    // A new operation, not marked as a replay: the key was forgotten by now, which a deployment may do (the
    // validity period of a key is not shown): nothing to judge about replays.
    if (again.status === 200 && replayedOf(again) !== true && dataIdOf(again) !== id)
      ctx.skip(
        `the key was not remembered until the run's end (the same key made connection ${String(dataIdOf(again))}, not a replay): its validity period is not shown`,
      );
    ctx.expect.that(again.status === 200 && isDeepStrictEqual(dataOf(again), dataOf(first.ex)), {
      expected: `the same key and content sent again at the run's end returns the first answer's data unchanged${listed !== madeState && listed !== undefined ? ` (the list shows the connection ${String(listed)} by now, made ${String(madeState)})` : ''}`,
      observed:
        again.status === 200 ? 'other data (diff: first answer expected, late replay observed)' : `${again.status}`,
      exchange: again,
      ...(again.status === 200 ? { diff: jsonDiff(dataOf(first.ex), dataOf(again)) } : {}),
    });
    if (!first.several)
      ctx.note('the deployment allowed no creation with several capabilities: one capability replayed');
  },
});

/** MUST ("The same key with different content yields idempotency_conflict"): the capabilities are content too. */
export const conflictCapabilitySet = defineCheck({
  name: 'idempotency.conflict-capability-set',
  title:
    'the same key with one capability of the list replaced (as many as before) answers 409 idempotency_conflict: the content is the capabilities themselves, not their number',
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['idempotency'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const several = await severalCapabilitiesBase(ctx);
    const [a, b, c] = several?.capabilities ?? [];
    if (!several || a === undefined || b === undefined || c === undefined)
      ctx.skip('found no connector with three capabilities the target allows: no list to change one item of');
    const key = freshKey(ctx);
    const body = { ...several, scopeLabel: ctx.label('conflict-capabilities'), capabilities: [a, b] };
    const first = await postConnection(ctx, body, { key });
    // Allowed one by one, refused together: a deployment's own rule, nothing to judge here.
    if (first.status !== 200) ctx.skip(`the creation with ${a} and ${b} answered ${first.status}: nothing to change`);
    const changed = await postConnection(ctx, { ...body, capabilities: [a, c] }, { key });
    const code = (changed.json as { error?: { code?: unknown } } | undefined)?.error?.code;
    if (changed.status >= 400 && code !== 'idempotency_conflict')
      ctx.note(
        `the changed list was refused ${changed.status} ${String(code)} (its content judged before the key): not judged`,
      );
    ctx.expect.that(changed.status >= 400, {
      expected: `the key of a creation with [${a}, ${b}], sent again with [${a}, ${c}], answers 409 idempotency_conflict`,
      observed: `${changed.status}${replayedOf(changed) === true ? ', meta.replayed true (the first answer replayed for other content)' : ''}`,
      exchange: changed,
    });
  },
});

export const idempotencyContentChecks = [keyComparedWhole, replayReordered, replayLate, conflictCapabilitySet];
