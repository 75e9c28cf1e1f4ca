import { isDeepStrictEqual } from 'node:util';
import { ENVIRONMENTS } from '../../simulator/contract/environment.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { jsonDiff } from '../runner/json-diff.ts';
import { keyRequired } from './idempotency-required.ts';
import { countLabelled, freshKey, postConnection, requireCreationBase } from './support/connections.ts';

type Meta = { replayed?: unknown; idempotencyKey?: unknown };
export const metaOf = (ex: Exchange) => ((ex.json as { meta?: Meta } | undefined)?.meta ?? {}) as Meta;
const dataOf = (ex: Exchange) => (ex.json as { data?: unknown } | undefined)?.data;
export const is2xx = (ex: Exchange) => ex.status >= 200 && ex.status < 300;

/** Creates the first connection of a check; ends the check when the target refuses it. */
export async function firstCreation(ctx: CheckContext, kind: string) {
  const base = await requireCreationBase(ctx);
  const key = freshKey(ctx);
  const body = { ...base, scopeLabel: ctx.label(kind) };
  const ex = await postConnection(ctx, body, { key });
  ctx.require(ex.status === 200, {
    expected: 'a valid POST /connections with a fresh Idempotency-Key answers 200 (needed to judge idempotency)',
    exchange: ex,
  });
  return { key, body, ex };
}

export const replay = defineCheck({
  name: 'idempotency.replay',
  title:
    'the same key with the same content returns the same response again, with meta.replayed true and meta.idempotencyKey; other content under it after the replay is a conflict',
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['idempotency'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const first = await firstCreation(ctx, 'replay');
    ctx.expect.that(metaOf(first.ex).replayed !== true, {
      expected: 'the first call is not marked as replayed',
      observed: `meta.replayed ${JSON.stringify(metaOf(first.ex).replayed)}`,
      exchange: first.ex,
    });
    const again = await postConnection(ctx, first.body, { key: first.key });
    ctx.expect.that(again.status === first.ex.status, {
      expected: `the repeated call answers ${first.ex.status} like the first`,
      exchange: again,
    });
    ctx.expect.that(isDeepStrictEqual(dataOf(again), dataOf(first.ex)), {
      expected: 'the repeated call returns the same data as the first (the same connection)',
      observed: 'the data differs (diff: first answer expected, repeated answer observed)',
      exchange: again,
      diff: jsonDiff(dataOf(first.ex), dataOf(again)),
    });
    const meta = metaOf(again);
    ctx.expect.that(meta.replayed === true, {
      expected: 'the repeated call carries meta.replayed: true',
      observed: `meta.replayed ${JSON.stringify(meta.replayed)}`,
      exchange: again,
    });
    ctx.expect.that(meta.idempotencyKey === first.key, {
      expected: `the repeated call carries meta.idempotencyKey ${first.key}`,
      observed: `meta.idempotencyKey ${JSON.stringify(meta.idempotencyKey)}`,
      exchange: again,
    });
    // "Tokens are short-lived and are renewed, not extended": a renewed token is the same access, so a client that
    // renews its token between a call and its repeat (the kit does before each retry) gets the replay, not a
    // conflict or a second connection (a fingerprint that hashes the Authorization header with the body).
    if (await ctx.renewToken()) {
      const renewed = await postConnection(ctx, first.body, { key: first.key });
      ctx.expect.that(
        renewed.status === first.ex.status &&
          isDeepStrictEqual(dataOf(renewed), dataOf(first.ex)) &&
          metaOf(renewed).replayed === true,
        {
          expected:
            'the key and content sent again under a renewed token (the same client) return the same response, meta.replayed true',
          observed: `${renewed.status}${renewed.status === first.ex.status ? `, meta.replayed ${JSON.stringify(metaOf(renewed).replayed)}` : ''}`,
          exchange: renewed,
          ...(renewed.status === 200 ? { diff: jsonDiff(dataOf(first.ex), dataOf(renewed)) } : {}),
        },
      );
    } else ctx.note('the run was given a token (--token): a repeat under a renewed token is not judged');
    // A key once replayed still holds its content: other content under it is a conflict, not another replay
    // (a store that answers the stored response to any call once the key has been replayed).
    const changed = { ...first.body, scopeLabel: ctx.label('replay-changed') };
    const third = await postConnection(ctx, changed, { key: first.key });
    ctx.expect.errorCode(
      third,
      'idempotency_conflict',
      'the key sent a third time, after its replay, with a different scopeLabel answers 409 idempotency_conflict',
    );
    const after = await countLabelled(ctx, first.body.scopeLabel, undefined, 1);
    ctx.expect.that(after.count === 1, {
      expected: 'two calls with one key created one connection',
      observed: `GET /connections lists ${after.count} with scopeLabel ${first.body.scopeLabel}`,
      exchange: after.ex,
    });
  },
});

export const conflict = defineCheck({
  name: 'idempotency.conflict',
  title: 'the same key with different content answers 409 idempotency_conflict and creates nothing',
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['idempotency'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const first = await firstCreation(ctx, 'conflict');
    const changed = { ...first.body, scopeLabel: ctx.label('conflict-changed') };
    const ex = await postConnection(ctx, changed, { key: first.key });
    // A conflict refuses that call only: the next creation, under a fresh key, is a new operation, created.
    const fresh = await postConnection(ctx, { ...changed, scopeLabel: ctx.label('after-conflict') });
    await judgeOnAlt(ctx, first);
    ctx.expect.errorCode(
      ex,
      'idempotency_conflict',
      'the key of an earlier call with a different body answers 409 idempotency_conflict',
    );
    const after = await countLabelled(ctx, changed.scopeLabel);
    ctx.expect.that(after.count === 0, {
      expected: 'the conflicting call created no connection',
      observed: `GET /connections lists ${after.count} with scopeLabel ${changed.scopeLabel}`,
      exchange: after.ex,
    });
    ctx.expect.that(is2xx(fresh), {
      expected:
        'after the conflict, the changed content sent with a fresh key is created ("use a new key for each new operation")',
      observed: `status ${fresh.status} ${String((fresh.json as { error?: { code?: unknown } } | undefined)?.error?.code ?? '')}`,
      exchange: fresh,
    });
    // Content is the content as sent: the key with the label differing only in letter case (a fingerprint over
    // a lower-cased body took it for the same content and replayed).
    const recased = swapCase(first.body.scopeLabel);
    if (recased !== first.body.scopeLabel) {
      const cased = await postConnection(ctx, { ...first.body, scopeLabel: recased }, { key: first.key });
      ctx.expect.errorCode(
        cased,
        'idempotency_conflict',
        `the key of an earlier call sent again with scopeLabel ${JSON.stringify(recased)} (only its letter case changed from ${JSON.stringify(first.body.scopeLabel)}) answers 409 idempotency_conflict`,
      );
    }
    // Content is every field: the key with only the environment changed (a store keyed per environment
    // took it for a new operation). Another environment than production, which a sandbox may refuse as such.
    const environment = ENVIRONMENTS.find((e) => e !== first.body.environment && e !== 'production');
    if (!environment) return;
    const moved = await postConnection(ctx, { ...first.body, environment }, { key: first.key });
    // Refused for the environment itself (a deployment may judge the content before the key): not judged.
    // Accepted, as a new operation or as a replay of the first, it is judged.
    if (!is2xx(moved)) {
      const code = (moved.json as { error?: { code?: unknown } } | undefined)?.error?.code;
      if (code !== 'idempotency_conflict')
        ctx.note(`the key with only environment changed was refused ${moved.status} ${String(code)}: not judged`);
      return;
    }
    // Taken as a new operation: the key may have run out meanwhile ("Validity period of an idempotency key: not
    // shown"). The first content sent again tells: replayed, the key was alive and the taking is the failure.
    const firstId = (first.ex.json as { data?: { id?: unknown } } | undefined)?.data?.id;
    if (metaOf(moved).replayed !== true) {
      const again = await postConnection(ctx, first.body, { key: first.key });
      const alive =
        metaOf(again).replayed === true ||
        (firstId !== undefined && (again.json as { data?: { id?: unknown } } | undefined)?.data?.id === firstId);
      if (is2xx(again) && !alive)
        return void ctx.note(
          `the key with only environment changed was taken as a new operation, but the key no longer replays its first content either (run out): not judged`,
        );
    }
    ctx.expect.errorCode(
      moved,
      'idempotency_conflict',
      `the key of an earlier call sent again with only environment changed (${first.body.environment} -> ${environment}) answers 409 idempotency_conflict`,
    );
    const same = await countLabelled(ctx, first.body.scopeLabel);
    ctx.expect.that(same.count <= 1, {
      expected: 'the call with the environment changed created no second connection',
      observed: `GET /connections lists ${same.count} with scopeLabel ${first.body.scopeLabel}`,
      exchange: same.ex,
    });
  },
});

/**
 * The same key with other content at the alternate address: one interface, so 409 as on the main one; a
 * store kept per address may take it for a new operation, but never answers the first call's result for it.
 */
async function judgeOnAlt(ctx: CheckContext, first: Awaited<ReturnType<typeof firstCreation>>) {
  if (!ctx.target.altBaseUrl) return;
  const other = { ...first.body, scopeLabel: ctx.label('conflict-alt') };
  const ex = await postConnection(ctx, other, { key: first.key, base: 'alt' });
  if (!is2xx(ex)) return;
  const label = (ex.json as { data?: { scopeLabel?: unknown } } | undefined)?.data?.scopeLabel;
  ctx.expect.that(label === other.scopeLabel, {
    expected: `the key of a call made at ${ctx.target.baseUrl}, sent at ${ctx.target.altBaseUrl} with other content, answers 409 idempotency_conflict (or, kept per address, creates what was sent), never the first call's result`,
    observed: `answered ${ex.status} with scopeLabel ${JSON.stringify(label)} (sent ${JSON.stringify(other.scopeLabel)})`,
    exchange: ex,
  });
}

export const idempotencyChecks = [keyRequired, replay, conflict];

/** A text with the case of each letter swapped ("Venue A" -> "vENUE a"): other content, the same letters. */
const swapCase = (text: string) =>
  [...text].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');
