// "Retry only after rate_limited and internal", and "modifying calls are repeat-safe through idempotency keys":
// a client that retries a refused write with its key and content must get what the interface promises. The kit
// cannot make a deployment refuse on demand without its control plane, so these are judged where one arms faults
// (the simulator's `/_sandbox/faults`, or a deployment's at the profile's controlPlanePath): a 429 did nothing,
// so the retry runs; a creation committed before its 500 is not made twice; a registration answered 500 before
// anything was stored is taken when sent again, not refused as a conflict.
import { routePath } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { armed, armFault } from './support/arm-fault.ts';
import { freshKey, listedEventually, postConnection, requireCreationBase } from './support/connections.ts';
import { receiverIdOf } from './support/one-list.ts';
import { kitReceiver, receiverBaseUrl, removeAtRunEnd, webhooksPath } from './support/webhook-scenario.ts';

/** Arms one fault for the next matching call of this tenant; false where the control plane does not take it. */
async function arm(ctx: CheckContext, fault: Record<string, unknown>): Promise<boolean> {
  const ex = await armFault(ctx, { count: 1, ...(ctx.target.tenant ? { tenant: ctx.target.tenant } : {}), ...fault });
  if (!armed(ex)) ctx.note(`the control plane did not arm ${JSON.stringify(fault)} (${ex.status})`);
  return armed(ex);
}

const dataOf = (ex: { json?: unknown }) => (ex.json as { data?: Record<string, unknown> } | undefined)?.data;
const waitS = (s: string | undefined) => new Promise((r) => setTimeout(r, Math.min(5, Number(s) || 1) * 1000));

export const retryAfterFault = defineCheck({
  name: 'idempotency.retry-after-fault',
  title:
    'a write refused 429 or 500 and sent again with its key and content is answered as promised: after a 429 it runs (200, not a conflict), a creation committed before its 500 is not made twice, a registration answered 500 is taken',
  severity: 'MUST',
  section: 'Errors',
  tags: ['idempotency', 'errors', 'rate-limit'],
  mutating: true,
  requires: ['token', 'control-plane'],
  // The fault is taken by the next matching call of the tenant: no other check's call may come between.
  alone: true,
  async run(ctx: CheckContext) {
    const path = routePath('createConnection');
    const base = await requireCreationBase(ctx);
    let judged = 0;
    // A 429 did nothing: the retry (after the wait the answer asks) runs as a first call would.
    if (await arm(ctx, { kind: 'rate_limited', method: 'POST', route: path, retryAfterSeconds: 1 })) {
      const body = { ...base, scopeLabel: ctx.label('after-429') };
      const key = freshKey(ctx);
      const refused = await postConnection(ctx, body, { key, retry: false });
      if (refused.status === 429) {
        await waitS(refused.headers['retry-after']);
        const again = await postConnection(ctx, body, { key, retry: false });
        judged++;
        ctx.expect.that(again.status === 200, {
          expected: `POST ${path} refused 429, sent again after its Retry-After with the same key and content, runs (200): a refused call did nothing, and the interface says to retry after rate_limited`,
          exchange: again,
        });
      } else ctx.note(`the armed 429 was not taken (${refused.status})`);
    }
    // Committed, then answered 500: the retry must not make a second connection.
    if (await arm(ctx, { kind: 'commit_then_fail', method: 'POST', route: path, failWith: 'internal' })) {
      const body = { ...base, scopeLabel: ctx.label('after-500') };
      const key = freshKey(ctx);
      const failed = await postConnection(ctx, body, { key, retry: false });
      if (failed.status === 500) {
        const again = await postConnection(ctx, body, { key, retry: false });
        const id = dataOf(again)?.id;
        const { ex, connections } = await listedEventually(ctx, (cs) => cs.some((c) => c.id === id));
        const labelled = connections.filter((c) => c.scopeLabel === body.scopeLabel);
        judged++;
        ctx.expect.that(again.status === 200 && labelled.length === 1 && labelled[0]?.id === id, {
          expected: `POST ${path} answered 500 after it was stored, sent again with the same key and content, answers the connection it made (200, its id), and the tenant has one connection with its label ("repeat-safe through idempotency keys")`,
          observed: `${again.status}, id ${JSON.stringify(id)}; listed with the label: ${labelled.map((c) => JSON.stringify(c.id)).join(', ') || 'none'}`,
          exchange: labelled.length === 1 ? again : ex,
        });
      } else ctx.note(`the armed commit-then-fail was not taken (${failed.status})`);
    }
    // A registration answered 500 at once stored nothing: sent again, it is taken (a 409 would mean the key was kept).
    const receiver = await kitReceiver(ctx);
    if (await arm(ctx, { kind: 'internal', method: 'POST', route: webhooksPath() })) {
      const json = {
        url: `${receiverBaseUrl(ctx, receiver)}/${ctx.label('after-500-receiver')}`,
        events: ['connection.created'],
      };
      const headers = { 'Idempotency-Key': freshKey(ctx) };
      const failed = await ctx.call('POST', webhooksPath(), { json, headers, retry: false });
      if (failed.status === 500) {
        const again = await ctx.call('POST', webhooksPath(), { json, headers, retry: false });
        const id = receiverIdOf(dataOf(again) ?? {}, json.url);
        if (id) removeAtRunEnd(ctx, id);
        judged++;
        ctx.expect.that(again.status !== 409, {
          expected: `POST ${webhooksPath()} answered 500, sent again with the same key and content, is not refused as a conflict (the same key with the same content)`,
          exchange: again,
        });
      } else ctx.note(`the armed 500 was not taken (${failed.status})`);
    }
    if (!judged) ctx.skip('the control plane armed no fault the kit could provoke (see the notes)');
  },
});
