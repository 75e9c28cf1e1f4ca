import type { ReceivedDelivery } from '../client/webhook-receiver.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { createLabelledConnection, freshKey } from './support/connections.ts';
import { receiverIdOf } from './support/one-list.ts';
import { EARLIER, earlierVersionPlace } from './support/places.ts';
import { deliveryLog, findLogged, loggedDeliveries, sameEvent } from './support/webhook-evidence.ts';
import { triggerLogged } from './support/webhook-redeliver.ts';
import {
  deliveryFor,
  deliveryLogTemplate,
  deliveryWaitMs,
  receiverBaseUrl,
  removeAtRunEnd,
  requireDelivery,
  type WebhookScenario,
  webhooksPath,
} from './support/webhook-scenario.ts';

/** The second receiver (its URL in the allowed forms) and what two creations delivered. */
interface SecondReceiver {
  first: WebhookScenario & { delivery: ReceivedDelivery };
  form: WebhookScenario;
  /** The first creation reached the plain receiver (so it should reach this one too). */
  plainGot: boolean;
}

/**
 * Registers the second receiver and creates two connections, each awaited there; shared by both checks (once a
 * run). Its own receiver: the scenario's deliveries are triggered again by webhooks.redelivery meanwhile.
 */
function secondReceiver(ctx: CheckContext): Promise<SecondReceiver | { skip: string }> {
  return ctx.shared('webhook-second-receiver', async () => {
    const first = await requireDelivery(ctx);
    const label = ctx.label('form-receiver');
    const url = `${receiverBaseUrl(ctx, first.receiver)}/hooks/v1/${label}?source=ncs&attempt=1`;
    // Registered by a caller of the earlier version where it is served ("no change that requires adaptation of
    // clients": a receiver a 2026-06-12 client registered is delivered to and logged as any), its log read as a
    // current caller; where that version's registration is refused, registered as a current caller.
    const register = (headers: Record<string, string> = {}) =>
      ctx.call('POST', webhooksPath(), {
        json: { url, events: first.events },
        headers: { ...headers, 'Idempotency-Key': freshKey(ctx) },
      });
    const [earlier] = await earlierVersionPlace(ctx);
    let registration = await register(earlier?.call.headers);
    const ok = (ex: { status: number }) => ex.status >= 200 && ex.status < 300;
    const asEarlier = earlier !== undefined && ok(registration);
    if (earlier && !asEarlier) {
      ctx.note(
        `a receiver registered ${earlier.what} was refused ${registration.status}: registered as a current caller`,
      );
      registration = await register();
    }
    if (!ok(registration))
      return { skip: `a receiver at ${url} was refused ${registration.status} (see webhooks.registration-forms)` };
    const webhookId = receiverIdOf((registration.json as { data?: unknown } | undefined)?.data, url);
    if (webhookId) removeAtRunEnd(ctx, webhookId);
    const form: WebhookScenario = {
      receiver: first.receiver,
      url,
      label,
      events: first.events,
      registration,
      deliveries: [],
      ...(asEarlier ? { registeredAs: EARLIER } : {}),
      ...(webhookId ? { webhookId } : {}),
    };
    let plainGot = false;
    for (const n of [1, 2]) {
      const created = await createLabelledConnection(ctx, `log-forms-${n}`);
      if (!created.id) return { skip: `the creation that would deliver answered ${created.ex.status}` };
      const wait = (s: { label: string }) =>
        first.receiver.waitFor(deliveryFor(s, created.id as string), deliveryWaitMs(ctx), undefined, ctx.signal);
      const [plain, formed] = await Promise.all([n === 1 ? wait(first) : Promise.resolve([]), wait(form)]);
      if (n === 1) plainGot = plain.length > 0;
      if (formed[0]) form.deliveries.push(formed[0]);
    }
    return { first, form, plainGot };
  });
}

async function requireSecond(ctx: CheckContext): Promise<SecondReceiver> {
  const second = await secondReceiver(ctx);
  if ('skip' in second) ctx.skip(second.skip);
  return second;
}

export const deliveryLogForms = defineCheck({
  name: 'webhooks.delivery-log-forms',
  title:
    "a receiver registered with a deeper path and a query string (by a caller of the earlier version, where served) gets its deliveries and lists them in its delivery log, read as a current caller, as the plain receiver's log does",
  // As webhooks.delivery-log: SHOULD at the simulator's paths, MUST where the profile declares the log's path.
  severity: 'SHOULD',
  section: 'Webhooks',
  tags: ['webhooks'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    if (ctx.declared('webhookDeliveryLogPath'))
      ctx.judgeAsMust('the deployment profile declares webhookDeliveryLogPath');
    const { first, form, plainGot } = await requireSecond(ctx);
    // The plain receiver's log must list its delivery first: where it does not, webhooks.delivery-log says why.
    const plain = await deliveryLog(ctx, first, first.delivery);
    if (plain.status !== 200 || findLogged(ctx, plain, first.delivery, first.webhookId) === undefined)
      ctx.skip("the plain receiver's delivery log does not list its delivery (see webhooks.delivery-log)");
    const delivery = form.deliveries[0];
    const as = form.registeredAs ? ` (registered with Service-Version ${form.registeredAs})` : '';
    if (!delivery) {
      // Both were registered for the same events: what reached the plain receiver reaches this one too.
      if (!plainGot) ctx.skip('the connection created next reached neither receiver (see webhooks.delivery-arrives)');
      return ctx.fail({
        expected: `the connection created next is delivered to the receiver at ${form.url}${as} too (registered for the same events as the plain receiver, which got it)`,
        observed: `nothing arrived there within ${deliveryWaitMs(ctx)} ms`,
        exchange: form.registration,
      });
    }
    const log = await deliveryLog(ctx, form, delivery);
    if (
      !ctx.expect.status(
        log,
        200,
        `GET ${await deliveryLogTemplate(ctx)} answers 200 for the receiver at ${form.url}${as}`,
      )
    )
      return;
    ctx.expect.that(findLogged(ctx, log, delivery, form.webhookId) !== undefined, {
      expected: `the delivery log of the receiver at ${form.url}${as}, read as a current caller, lists the delivery it got ("Deliveries are recorded in a delivery log"), as the plain receiver's does`,
      observed: `${loggedDeliveries(log).length} entries, none naming it`,
      exchange: log,
    });
  },
});

export const redeliveryAny = defineCheck({
  name: 'webhooks.redelivery-any',
  title:
    "each delivery a receiver's log lists can be triggered again, the older as the newer: both arrive at the receiver again; a connection created after that is delivered as itself",
  // As webhooks.redelivery: SHOULD at the simulator's paths, MUST where the profile declares the path.
  severity: 'SHOULD',
  section: 'Webhooks',
  tags: ['webhooks'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const declared = ctx.declared('webhookRedeliverPath');
    if (declared) ctx.judgeAsMust('the deployment profile declares webhookRedeliverPath');
    const { first, form } = await requireSecond(ctx);
    const [older, newer] = form.deliveries;
    if (!older || !newer)
      ctx.skip(
        `the receiver at ${form.url} got ${form.deliveries.length} of two deliveries (see webhooks.delivery-log-forms)`,
      );
    const sent = [];
    for (const [which, delivery] of [
      ['older', older],
      ['newer', newer],
    ] as const) {
      const same = sameEvent(delivery);
      const matches = (d: ReceivedDelivery) => d.path.includes(form.label) && same(d);
      const before = form.receiver.received.filter(matches).length;
      sent.push({ which, matches, before, t: await triggerLogged(ctx, { ...form, delivery }) });
    }
    const answered = sent.flatMap((x) => ('ex' in x.t ? [x.t.ex.status] : []));
    // No re-trigger at the path the kit assumed (the interface does not show it): webhooks.redelivery says so.
    if (!declared && answered.length > 0 && answered.every((s) => s === 404))
      ctx.skip('every re-trigger answered 404 at the path the kit assumed (see webhooks.redelivery)');
    for (const { which, matches, before, t } of sent) {
      if ('none' in t) {
        ctx.note(`the ${which} delivery: ${t.none} (a log keeping fewer entries)`);
        continue;
      }
      const by = `(by ${t.tried.join(', then ')})`;
      if (
        !ctx.expect.status(t.ex, 200, `the ${which} of the receiver's two deliveries triggered again ${by} answers 200`)
      )
        continue;
      const again = await form.receiver.waitFor(matches, deliveryWaitMs(ctx), (m) => m.length > before, ctx.signal);
      ctx.expect.that(again.length > before, {
        expected: `the ${which} of the receiver's two deliveries, triggered again, arrives again within ${deliveryWaitMs(ctx)} ms ("can be triggered again on request")`,
        observed: `it arrived ${again.length} time(s) in all`,
        exchange: t.ex,
      });
    }
    await deliveredAfter(ctx, first, form);
  },
});

/**
 * A connection created after the re-triggers is delivered to both receivers as itself: a dispatcher whose send
 * buffer still held a re-triggered body would send the old event again, correctly signed, in its place.
 */
async function deliveredAfter(ctx: CheckContext, first: WebhookScenario, form: WebhookScenario) {
  const created = await createLabelledConnection(ctx, 'log-forms-3');
  const id = created.id;
  if (!id) return ctx.note(`the creation after the re-triggers answered ${created.ex.status}: not judged`);
  const arrived = await Promise.all(
    [first, form].map((s) => s.receiver.waitFor(deliveryFor(s, id), deliveryWaitMs(ctx), undefined, ctx.signal)),
  );
  for (const [i, s] of [first, form].entries())
    ctx.expect.that((arrived[i]?.length ?? 0) > 0, {
      expected: `the connection created after the deliveries were triggered again (${id}) is delivered to the receiver at ${s.url} as itself, as the ones before were`,
      observed: `no delivery naming ${id} arrived there within ${deliveryWaitMs(ctx)} ms`,
      exchange: created.ex,
    });
}

export const logTenantOwn = defineCheck({
  name: 'webhooks.log-tenant-own',
  title:
    "a receiver the second tenant registers at the URL of one of the first tenant's lists none of the first tenant's deliveries in its delivery log (each tenant's log is its own)",
  // As webhooks.delivery-log: SHOULD at the simulator's paths, MUST where the profile declares the log's path.
  severity: 'SHOULD',
  section: 'Webhooks',
  tags: ['webhooks', 'tenants'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    if (ctx.declared('webhookDeliveryLogPath'))
      ctx.judgeAsMust('the deployment profile declares webhookDeliveryLogPath');
    const other = ctx.target.otherTenant;
    if (!other) ctx.skip('no second tenant (pass --other-tenant)');
    const { form } = await requireSecond(ctx);
    const [delivery] = form.deliveries;
    if (!delivery) ctx.skip(`the receiver at ${form.url} got no delivery (see webhooks.delivery-log-forms)`);
    // Another tenant's receiver at the same address (tenants are separate: the address is theirs to choose too).
    const registration = await ctx.call('POST', webhooksPath(), {
      json: { url: form.url, events: form.events },
      headers: { 'Idempotency-Key': freshKey(ctx) },
      tenant: other,
    });
    if (registration.status < 200 || registration.status >= 300)
      return ctx.note(`tenant ${other}'s receiver at ${form.url} answered ${registration.status}: not judged`);
    const webhookId = receiverIdOf((registration.json as { data?: unknown } | undefined)?.data, form.url);
    if (!webhookId) return ctx.note(`tenant ${other}'s registration names no receiver id: its log not read`);
    removeAtRunEnd(ctx, webhookId, other);
    const log = await deliveryLog(ctx, { ...form, registration, webhookId }, undefined, { tenant: other });
    if (log.status !== 200) return ctx.note(`tenant ${other}'s delivery log answered ${log.status}: not judged`);
    const foreign = form.deliveries.filter((d) => findLogged(ctx, log, d, webhookId) !== undefined);
    ctx.expect.that(foreign.length === 0, {
      expected: `the delivery log of tenant ${other}'s receiver at ${form.url} lists none of tenant ${ctx.target.tenant}'s deliveries to its receiver at the same URL (each tenant's log is its own: "entry belongs to another tenant")`,
      observed: `${foreign.length} of tenant ${ctx.target.tenant}'s ${form.deliveries.length} deliveries listed there`,
      exchange: log,
    });
  },
});

export const webhookLogFormChecks = [deliveryLogForms, redeliveryAny, logTenantOwn];
