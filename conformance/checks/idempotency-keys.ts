import { routePath } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
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
    const data = (ex.json as { data?: { operation?: unknown } } | undefined)?.data;
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

export const idempotencyKeyChecks = [keyResult];
