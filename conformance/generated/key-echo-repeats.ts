import type { Exchange } from '../client/http-client.ts';
import type { CheckContext } from '../runner/check.ts';

const header = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
const metaOf = (ex: Exchange) =>
  (ex.json as { meta?: { idempotencyKey?: unknown; replayed?: unknown } } | undefined)?.meta;
const echoOf = (ex: Exchange) => metaOf(ex)?.idempotencyKey;
/** Answers the limiter or a fault gives: not the operation's, so not held to its first answer. */
const passing = (status: number) => status === 429 || status >= 500;

/**
 * The same keyed call (key, method, path, content) answered twice alike: the second is a replay ("with
 * meta.replayed true and meta.idempotencyKey set") or the call run again, which a deployment answers as it
 * answered the first. Either way, where the first answer (the call's own, not a replay) named its key in
 * meta.idempotencyKey, so does the second: a stored refusal replayed through a serializer that builds fresh meta drops it. Part of
 * generated.idempotency-key-echo.
 * @example judgeKeyEchoRepeats(ctx) // fails when a repeated 404 creation answers without meta.idempotencyKey
 */
export function judgeKeyEchoRepeats(ctx: CheckContext): void {
  const groups = new Map<string, Exchange[]>();
  for (const { ex } of ctx.exchanges()) {
    const key = header(ex.requestHeaders, 'idempotency-key');
    if (key === undefined || passing(ex.status)) continue;
    const id = JSON.stringify([key, ex.method, ex.url, ex.requestBody ?? '']);
    groups.set(id, [...(groups.get(id) ?? []), ex]);
  }
  const offenders: { first: Exchange; again: Exchange }[] = [];
  for (const answers of groups.values()) {
    // The earliest answer, where it is the call's own (not a replay) and names its key: a deployment that echoes
    // the key on replays only (both meta fields are optional) is judged by what it does on first calls.
    const [first, ...later] = answers;
    const key = header(first?.requestHeaders ?? {}, 'idempotency-key');
    if (!first || echoOf(first) !== key || metaOf(first)?.replayed === true) continue;
    for (const again of later)
      if (again.status === first.status && echoOf(again) !== key) offenders.push({ first, again });
  }
  const [o] = offenders;
  if (!o) return;
  ctx.fail({
    expected: `${o.again.method} ${new URL(o.again.url).pathname} sent again with its key and content, answered ${o.again.status} as before: meta.idempotencyKey names the key, as the first answer did (a replay sets it; a call run again is answered alike)`,
    observed: `meta.idempotencyKey ${JSON.stringify(echoOf(o.again))} (the first answer, ${o.first.requestId ?? 'no request id'}, named ${JSON.stringify(echoOf(o.first))}; ${offenders.length} answers)`,
    exchange: o.again,
  });
}
