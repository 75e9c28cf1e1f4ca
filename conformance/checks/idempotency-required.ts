// A modifying call without an Idempotency-Key is refused ("Change of 2026-06-12 (security): modifying calls require
// an idempotency key"; "A missing key yields idempotency_required"), in every place the interface is offered.
import { ENVIRONMENTS } from '../../simulator/contract/environment.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import {
  CONNECTIONS_PATH,
  countLabelled,
  freshKey,
  postConnection,
  requireCreationBase,
} from './support/connections.ts';
import { crossedPlaces, type Place } from './support/places.ts';
import { testEvent } from './support/webhook-events.ts';
import { webhooksPath } from './support/webhook-scenario.ts';

const is2xx = (ex: Exchange) => ex.status >= 200 && ex.status < 300;

export const keyRequired = defineCheck({
  name: 'idempotency.required',
  title: 'a modifying call without Idempotency-Key answers 428 idempotency_required and changes nothing',
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['idempotency'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    const scopeLabel = ctx.label('no-key');
    const ex = await postConnection(ctx, { ...base, scopeLabel }, { key: false });
    ctx.expect.errorCode(
      ex,
      'idempotency_required',
      'POST /connections without Idempotency-Key answers 428 idempotency_required',
    );
    // The key is a header: one in the query (where a framework's parameter binding may look too) is none.
    const queryLabel = ctx.label('query-key');
    const inQuery = await ctx.call('POST', CONNECTIONS_PATH(), {
      json: { ...base, scopeLabel: queryLabel },
      query: { idempotencyKey: freshKey(ctx), idempotency_key: freshKey(ctx) },
    });
    ctx.expect.that(inQuery.status === 428 || inQuery.status === 400, {
      expected:
        'POST /connections with a key only in the query (idempotencyKey=, idempotency_key=) and no Idempotency-Key header is refused: 428 idempotency_required ("Header Idempotency-Key is required"), or 400 for the undescribed parameters',
      observed: `${inQuery.status}${inQuery.status === 200 ? ': created without the header' : ''}`,
      exchange: inQuery,
    });
    const hook = await ctx.call('POST', webhooksPath(), {
      json: { url: `http://127.0.0.1:9/${ctx.label('no-key')}`, events: [(await testEvent(ctx)).name] },
    });
    ctx.expect.errorCode(
      hook,
      'idempotency_required',
      'POST /webhooks without Idempotency-Key answers 428 idempotency_required (modifying calls require a key since 2026-06-12)',
    );
    // Every other place the interface is offered, alone and crossed: the alternate address (a gateway forwarding
    // without the key check), the second tenant, both together, and the earlier version where it is served (whose
    // own change is this rule), for both modifying calls (the second tenant's own creation is judged below).
    const secondAlone = (p: Place) => p.call.tenant !== undefined && !p.call.base && !p.call.headers;
    for (const p of await crossedPlaces(ctx)) {
      const calls = [
        {
          what: `POST /webhooks ${p.what}`,
          send: async () =>
            ctx.call('POST', webhooksPath(), {
              ...p.call,
              json: { url: `http://127.0.0.1:9/${ctx.label('no-key-there')}`, events: [(await testEvent(ctx)).name] },
            }),
        },
        ...(secondAlone(p)
          ? []
          : [
              {
                what: `POST /connections ${p.what}`,
                send: () =>
                  postConnection(ctx, { ...base, scopeLabel: ctx.label('no-key-there') }, { ...p.call, key: false }),
              },
            ]),
      ];
      for (const c of calls) {
        const there = await c.send();
        if (p.accessMayDiffer && [401, 403, 404].includes(there.status)) continue;
        ctx.expect.errorCode(
          there,
          'idempotency_required',
          `${c.what} without Idempotency-Key answers 428 idempotency_required, as at the main address`,
        );
      }
    }
    // Every environment value: a key check wired to one environment's settings leaves the others unguarded.
    // A refusal for the environment itself (a sandbox refusing production) is the deployment's; a creation is not.
    for (const environment of ENVIRONMENTS.filter((e) => e !== base.environment)) {
      const keyless = await postConnection(
        ctx,
        { ...base, environment, scopeLabel: ctx.label(`no-key-${environment}`) },
        {
          key: false,
        },
      );
      ctx.expect.that(!is2xx(keyless), {
        expected: `POST /connections without Idempotency-Key in environment ${environment} is refused (428 idempotency_required), as in ${base.environment}`,
        observed: `${keyless.status}: created without a key`,
        exchange: keyless,
      });
      if (!is2xx(keyless) && keyless.status !== 428)
        ctx.note(
          `without a key in ${environment}: ${keyless.status} (a refusal for the environment itself is not judged)`,
        );
    }
    const after = await countLabelled(ctx, scopeLabel);
    ctx.expect.that(after.count === 0, {
      expected: 'the refused creation left no connection behind',
      observed: `GET /connections lists ${after.count} connection(s) with scopeLabel ${scopeLabel}`,
      exchange: after.ex,
    });
    // The rule holds for every tenant: the second tenant's keyless creation too (a key check wired to one
    // tenant's settings leaves the other's creations unguarded).
    const other = ctx.target.otherTenant;
    if (!other) return;
    const otherLabel = ctx.label('no-key-other');
    const second = await postConnection(ctx, { ...base, scopeLabel: otherLabel }, { key: false, tenant: other });
    ctx.expect.errorCode(
      second,
      'idempotency_required',
      `POST /connections without Idempotency-Key under the second tenant (${other}) answers 428 idempotency_required`,
    );
    if (second.status === 200) return;
    const left = await countLabelled(ctx, otherLabel, other);
    ctx.expect.that(left.count === 0, {
      expected: `the second tenant's refused creation left no connection behind`,
      observed: `GET /connections under ${other} lists ${left.count} connection(s) with scopeLabel ${otherLabel}`,
      exchange: left.ex,
    });
  },
});
