import { IDEMPOTENCY_KEY_PATTERN } from '../../simulator/contract/limits.ts';
import { routePath } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { SkipCheck } from '../runner/failure.ts';
import { postConnection, requireCreationBase } from './support/connections.ts';
import { InterfaceIdempotencyKeyResult, zodIssues } from './support/interface-schemas.ts';

/** MUST (Idempotency key result): idempotencyKey, the operation asked for, and expiresAt as a date-time. */
export const keyResult = defineCheck({
  name: 'idempotency.key-result',
  title:
    'POST /idempotency-keys answers idempotencyKey, the operation sent and expiresAt (date-time), under the second tenant too',
  severity: 'MUST',
  section: 'Idempotency key result',
  tags: ['idempotency', 'schema'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const path = routePath('createIdempotencyKey');
    const operation = 'connection.create';
    const ex = await ctx.call('POST', path, { json: { operation } });
    ctx.require(ex.status === 200, { expected: `POST ${path} with operation ${operation} answers 200`, exchange: ex });
    const data = (ex.json as { data?: { operation?: unknown; idempotencyKey?: unknown } } | undefined)?.data;
    const parsed = InterfaceIdempotencyKeyResult.safeParse(data);
    ctx.expect.that(parsed.success, {
      expected: `POST ${path}: data is an idempotency key result (idempotencyKey, operation, expiresAt date-time)`,
      observed: parsed.error ? zodIssues(parsed.error) : '',
      exchange: ex,
    });
    ctx.expect.that(data?.operation === operation, {
      expected: `POST ${path}: data.operation repeats the operation sent (${operation})`,
      observed: `data.operation ${JSON.stringify(data?.operation)}`,
      exchange: ex,
    });
    await issuedKeysTaken(ctx, data);
    // Every tenant of the access is issued keys alike (an endpoint wired to one tenant's settings refuses
    // the other's): the second tenant's key result too.
    const other = ctx.target.otherTenant;
    if (!other) return;
    const theirs = await ctx.call('POST', path, { json: { operation }, tenant: other });
    // 403 is the interface's answer for an access whose role in that tenant does not cover the call (roles
    // are not shown): said, not judged.
    if (theirs.status === 403) {
      ctx.note(
        `POST ${path} under the second tenant (${other}) answered 403: the access's role there is the deployment's`,
      );
      return;
    }
    const parsedTheirs = InterfaceIdempotencyKeyResult.safeParse((theirs.json as { data?: unknown } | undefined)?.data);
    ctx.expect.that(theirs.status === 200 && parsedTheirs.success, {
      expected: `POST ${path} under the second tenant (${other}) answers 200 with an idempotency key result, as for the first`,
      observed: theirs.status === 200 && parsedTheirs.error ? zodIssues(parsedTheirs.error) : `${theirs.status}`,
      exchange: theirs,
    });
  },
});

/**
 * An issued key is one to send: it keeps the Idempotency-Key rule of Limits, and a creation under it passes
 * validation at the main address and, under a second key issued there, at the alternate one (the same interface).
 */
async function issuedKeysTaken(ctx: CheckContext, data: { idempotencyKey?: unknown } | undefined) {
  const key = data?.idempotencyKey;
  if (typeof key !== 'string') return;
  ctx.expect.that(IDEMPOTENCY_KEY_PATTERN.test(key), {
    expected: `the issued idempotencyKey keeps the Idempotency-Key rule (${IDEMPOTENCY_KEY_PATTERN.source})`,
    observed: JSON.stringify(key.slice(0, 140)),
  });
  let base: Awaited<ReturnType<typeof requireCreationBase>>;
  try {
    base = await requireCreationBase(ctx);
  } catch (err) {
    if (err instanceof SkipCheck) return ctx.note(`no creation to send an issued key with: ${err.message}`);
    throw err;
  }
  const path = routePath('createIdempotencyKey');
  const alt = ctx.target.altBaseUrl ? ['alt' as const] : [];
  for (const where of ['main' as const, ...alt]) {
    const issued =
      where === 'main'
        ? key
        : (
            (await ctx.call('POST', path, { json: { operation: 'connection.create' } })).json as
              | { data?: { idempotencyKey?: unknown } }
              | undefined
          )?.data?.idempotencyKey;
    if (typeof issued !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(issued)) continue;
    const ex = await postConnection(
      ctx,
      { ...base, scopeLabel: ctx.label('issued-key') },
      { key: issued, base: where },
    );
    ctx.expect.that(ex.status !== 400 && ex.status !== 428 && ex.status < 500, {
      expected: `POST /connections${where === 'alt' ? ' at the alternate base URL' : ''} under a key POST ${path} issued passes validation (the key is one to send)`,
      exchange: ex,
    });
  }
}

export const idempotencyKeyChecks = [keyResult];
