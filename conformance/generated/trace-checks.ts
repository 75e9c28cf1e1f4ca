import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { auditPageSize, auditPath } from '../checks/support/audit-log.ts';
import type { Exchange } from '../client/http-client.ts';
import type { KitReceiver } from '../client/webhook-receiver.ts';
import { routeOf } from '../rules/exchange-scope.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import { refusedTraces } from './trace.ts';

/**
 * After the run: no value of a refused call (its scope label, generated text, Idempotency-Key)
 * appears in what was written or sent since: GET /connections, any stream message the kit read, any
 * delivery its receiver got. The audit log is read too, but only noted: its format is not shown, and a
 * security trail that records refused attempts (the key and the refusal, as two independent deployments
 * chose) is a legal reading of "traceable changes"; a refusal that stored a connection shows in the list.
 */
/**
 * The whole value, not the start of a longer label (…-probe-3 is not …-probe-31).
 * @example wholeValue('label-probe-3').test('"label-probe-31"') // false
 */
export function wholeValue(value: string): RegExp {
  return new RegExp(`(?<![A-Za-z0-9-])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9-])`);
}

/**
 * Whether a value was also sent in a modifying call the deployment took (2xx) or may have carried out (no answer
 * within the kit's timeout, a 5xx: its effect is unknown, a loaded deployment commits what it answers late): it
 * may show up from that call, so finding it proves nothing about the refused one.
 * @example takenBy(exchanges)('label-probe-3') // true when an accepted POST carried it
 */
export function takenBy(exchanges: readonly Exchange[]): (value: string) => boolean {
  const mayHaveWritten = (status: number) => (status >= 200 && status < 300) || status === 0 || status >= 500;
  const taken = exchanges
    .filter((ex) => mayHaveWritten(ex.status) && ex.method !== 'GET')
    .map((ex) => `${ex.requestBody ?? ''}\n${JSON.stringify(ex.requestHeaders)}`);
  // One pattern per value, tried only on the texts that hold it at all (a run sends over a thousand calls).
  return (value) => {
    const re = wholeValue(value);
    return taken.some((text) => text.includes(value) && re.test(text));
  };
}

async function noTrace(ctx: CheckContext) {
  const traces = await refusedTraces(ctx);
  if (traces.length === 0)
    ctx.skip('no refused call of the generated probes carried a recognisable value (see generated.probes-*)');
  const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
  const places: { where: string; text: string; ex?: Parameters<typeof routeOf>[0]; noted?: true }[] = [];
  if (ctx.target.hasToken) {
    const list = await ctx.call(
      'GET',
      must(ROUTE_BY_ID.get('listConnections'), 'the contract defines listConnections').path,
    );
    if (list.status === 200) places.push({ where: 'GET /connections', text: list.text, ex: list });
    // One page of the log, as many entries as the kit reads per page (the kit's own are recent).
    const limit = await auditPageSize(ctx);
    const audit = await ctx.call('GET', auditPath(), { query: { limit: String(limit) } });
    if (audit.status === 200)
      places.push({
        where: `the audit log (a page of up to ${limit} entries)`,
        text: audit.text,
        ex: audit,
        noted: true,
      });
    else ctx.note(`the audit log answered ${audit.status}: not searched`);
  }
  for (const { ex } of ctx.exchanges())
    if (routeOf(ex, bases)?.id === 'streamStatus' && ex.status === 200)
      places.push({ where: 'a stream the kit read', text: ex.text, ex });
  const receiver = await ctx
    .shared<KitReceiver | undefined>('webhook-receiver', async () => undefined)
    .catch(() => undefined);
  for (const d of receiver?.received ?? [])
    places.push({
      where: `the webhook delivery ${d.path}`,
      text: `${JSON.stringify(d.headers)}\n${d.rawBody.toString('utf8')}`,
    });
  ctx.note(`looked for ${traces.length} values of refused calls in ${places.length} places`);
  const sentInTaken = takenBy(ctx.exchanges().map(({ ex }) => ex));
  for (const t of traces) {
    const re = wholeValue(t.value);
    if (sentInTaken(t.value)) {
      ctx.note(`${t.value.slice(0, 60)} of the refused ${t.call} was also sent in a call answered 2xx: not looked for`);
      continue;
    }
    const hits = places.filter((p) => p.text.includes(t.value) && re.test(p.text));
    for (const p of hits.filter((h) => h.noted))
      ctx.note(`${p.where} records the refused ${t.call} (${t.value.slice(0, 60)}): an attempt on record, not judged`);
    const hit = hits.find((h) => !h.noted);
    if (hit)
      ctx.fail({
        expected: 'a refused call (4xx) writes nothing: no connection, stream message or delivery shows it',
        observed: `${hit.where} shows ${JSON.stringify(t.value.slice(0, 60))} of the refused ${t.call}`,
        ...(hit.ex ? { exchange: hit.ex } : {}),
      });
  }
}

export const refusedLeftNoTrace = defineCheck({
  name: 'generated.refused-left-no-trace',
  title:
    'no refused call (4xx) shows up afterwards: not in the connections, a stream message or a webhook delivery (the audit log may record the attempt)',
  severity: 'MUST',
  section: 'Errors',
  tags: ['generated', 'invariant'],
  mutating: false,
  // The refused calls with recognisable values are the authenticated probes; the search reads GET /connections.
  requires: ['token'],
  judgesRun: true,
  run: noTrace,
});

export const traceChecks = [refusedLeftNoTrace];
