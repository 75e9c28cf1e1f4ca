// The Idempotency-Key across tenants: a key another tenant used never hands that tenant's connection over, and
// the second tenant's own operation under it is repeat-safe like the first's.
import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import { firstCreation, is2xx, metaOf } from './idempotency.ts';
import { dataIdOf, freshKey, listConnections, postConnection } from './support/connections.ts';

export const tenantScope = defineCheck({
  name: 'idempotency.tenant-scope',
  title:
    "a key another tenant already used never replays that tenant's response, either way (no connection crosses tenants); where the second tenant got its own connection, its repeat replays that one",
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['idempotency', 'tenant'],
  mutating: true,
  requires: ['token', 'other-tenant'],
  async run(ctx: CheckContext) {
    const other = must(ctx.target.otherTenant, "the runner runs a check requiring 'other-tenant' only with one");
    const first = await firstCreation(ctx, 'tenant-scope');
    const firstId = dataIdOf(first.ex);
    const ex = await postConnection(ctx, first.body, { key: first.key, tenant: other });
    const replayedAcross = metaOf(ex).replayed === true || (firstId !== undefined && dataIdOf(ex) === firstId);
    ctx.expect.that(!replayedAcross, {
      expected: `tenant ${other} sending tenant ${ctx.target.tenant}'s key and body does not get ${ctx.target.tenant}'s connection back`,
      observed: `data.id ${JSON.stringify(dataIdOf(ex))}, meta.replayed ${JSON.stringify(metaOf(ex).replayed)}`,
      exchange: ex,
    });
    if (is2xx(ex)) {
      ctx.note(`keys are scoped per tenant: tenant ${other} got its own connection`);
      // The second tenant's operation under that key is repeat-safe too: "the same key with the same content
      // returns the same response again".
      const again = await postConnection(ctx, first.body, { key: first.key, tenant: other });
      ctx.expect.that(
        again.status === ex.status && metaOf(again).replayed === true && dataIdOf(again) === dataIdOf(ex),
        {
          expected: `tenant ${other} sending the same key and body again gets its own connection ${JSON.stringify(dataIdOf(ex))} back with meta.replayed true`,
          observed: `${again.status}, data.id ${JSON.stringify(dataIdOf(again))}, meta.replayed ${JSON.stringify(metaOf(again).replayed)}`,
          exchange: again,
        },
      );
      // And its content is compared whole for it too: another connector under that key is no replay.
      const changed = { ...first.body, connectorId: `${first.body.connectorId}-other` };
      const conflicted = await postConnection(ctx, changed, { key: first.key, tenant: other });
      ctx.expect.that(!is2xx(conflicted) && conflicted.status < 500, {
        expected: `tenant ${other} sending its key again with another connectorId is refused (409 idempotency_conflict: "same idempotency key with different content"; 404 where the unknown connector is judged first)`,
        observed: `${conflicted.status}${metaOf(conflicted).replayed === true ? ', replayed' : ''}`,
        exchange: conflicted,
      });
      // A 409 is the conflict the interface names, not another code of that status (capability_denied).
      if (conflicted.status === ERROR_TABLE.idempotency_conflict.status)
        ctx.expect.errorCode(
          conflicted,
          'idempotency_conflict',
          `tenant ${other} sending its key again with another connectorId answers 409 idempotency_conflict`,
        );
    } else ctx.note(`tenant ${other} was refused with ${ex.status}: keys may be global, which is safe`);
    // The other way too: a key the second tenant used first never hands its connection to the first tenant (a
    // store consulted per tenant for new keys but searched globally for replays shows in one direction only).
    const body = { ...first.body, scopeLabel: ctx.label('tenant-scope-theirs') };
    const key = freshKey(ctx);
    const theirs = await postConnection(ctx, body, { key, tenant: other });
    if (is2xx(theirs)) {
      const mine = await postConnection(ctx, body, { key });
      const crossed =
        metaOf(mine).replayed === true || (dataIdOf(theirs) !== undefined && dataIdOf(mine) === dataIdOf(theirs));
      ctx.expect.that(!crossed, {
        expected: `tenant ${ctx.target.tenant} sending tenant ${other}'s key and body does not get ${other}'s connection back`,
        observed: `data.id ${JSON.stringify(dataIdOf(mine))}, meta.replayed ${JSON.stringify(metaOf(mine).replayed)}`,
        exchange: mine,
      });
    } else ctx.note(`tenant ${other}'s own creation answered ${theirs.status}: the other way not judged`);
    const { ex: listEx, connections } = await listConnections(ctx, other);
    ctx.expect.that(!connections.some((c) => c.id === firstId), {
      expected: `GET /connections for tenant ${other} does not list tenant ${ctx.target.tenant}'s connection ${firstId}`,
      exchange: listEx,
    });
  },
});
