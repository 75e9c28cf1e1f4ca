import { errorProbes } from '../checks/support/error-probes.ts';
import { successSamples } from '../checks/support/samples.ts';
import { issuedSigningKeys, type WebhookScenario } from '../checks/support/webhook-scenario.ts';
import type { KitReceiver } from '../client/webhook-receiver.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { addressForms, type KnownSecret, scanText } from './channel-scan.ts';
import { routeOf } from './exchange-scope.ts';

const URLS = /https?:\/\/[^\s"'<>]+/g;

/** What the run already has, without starting anything new: the receiver and the webhook scenario, if some check made them. */
const existing = <T>(ctx: CheckContext, key: string) => ctx.shared<T | undefined>(key, async () => undefined);

/**
 * Every channel the kit observed, scanned for every secret the run knows (tokens, client secret,
 * admin token, the webhook signing key outside the one answer that issues it) and for internals:
 * answer headers and bodies, stream messages (the stream answers' text), webhook deliveries (headers
 * and body as the kit's receiver got them).
 */
async function scanChannels(ctx: CheckContext) {
  await Promise.all([successSamples(ctx), errorProbes(ctx)]);
  const receiver = await existing<KitReceiver>(ctx, 'webhook-receiver').catch(() => undefined);
  const scenario = await existing<WebhookScenario>(ctx, 'webhook-scenario').catch(() => undefined);
  const secrets: KnownSecret[] = ctx
    .secrets()
    .map((value, i) => ({ value, what: `secret #${i + 1} of the run (a token or client secret)` }));
  const signing: KnownSecret | undefined = scenario?.secret
    ? { value: scenario.secret, what: 'the webhook signing key (issued once)' }
    : undefined;
  // Every other registration's key too (issued once each, in its own answer): a refusal quoting one is a leak.
  const path = scenario?.signingKey?.found ? scenario.signingKey.path : undefined;
  const others: KnownSecret[] = scenario
    ? [...issuedSigningKeys(ctx, path)]
        .filter((k) => k !== scenario.secret)
        .map((value) => ({ value, what: 'a webhook signing key another registration was issued' }))
    : [];
  const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
  const legalBase = [...bases.flatMap(addressForms), ...(receiver ? addressForms(receiver.origin) : [])];
  const legalHosts = receiver ? [new URL(receiver.origin).hostname] : [];
  let scanned = 0;
  const found: { where: string; what: string[]; ex?: Parameters<typeof routeOf>[0] }[] = [];
  for (const { ex } of ctx.exchanges()) {
    const route = routeOf(ex, bases);
    if (!route) continue;
    scanned++;
    const issuesSecret = route.id === 'createWebhook' && ex.status === 200;
    const legal = [
      ...legalBase,
      ...Array.from(`${ex.url} ${ex.requestBody ?? ''}`.matchAll(URLS), (m) => addressForms(m[0])).flat(),
    ];
    const text = `${Object.entries(ex.headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n')}\n${ex.text}`;
    const what = scanText(text, {
      secrets: [...secrets, ...(!issuesSecret ? [...(signing ? [signing] : []), ...others] : [])],
      error: ex.status >= 400,
      legal,
      legalHosts,
    });
    if (what.length)
      found.push({
        where: `${ex.method} ${new URL(ex.url).pathname} (${ex.status}${(route.kind ?? 'json') === 'sse' ? ', stream messages' : ''})`,
        what,
        ex,
      });
  }
  for (const d of receiver?.received ?? []) {
    scanned++;
    const text = `${Object.entries(d.headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n')}\n${d.rawBody.toString('utf8')}`;
    const what = scanText(text, {
      secrets: [...secrets, ...(signing ? [signing] : [])],
      error: false,
      legal: legalBase,
      legalHosts,
    });
    if (what.length) found.push({ where: `the webhook delivery ${d.method} ${d.path} (headers and body)`, what });
  }
  ctx.note(`scanned ${scanned} answers, streams and deliveries`);
  const first = found[0];
  if (!first) return;
  ctx.fail({
    expected:
      'no channel reveals a secret of the run or an internal detail (Errors: "no internal details"; "no tokens or raw data are to be sent along")',
    observed: `${first.where} reveals ${first.what.join(', ')}${
      found.length > 1
        ? ` (and ${found.length - 1} more: ${found
            .slice(1, 4)
            .map((f) => f.where)
            .join('; ')})`
        : ''
    }`,
    ...(first.ex ? { exchange: first.ex } : {}),
  });
}

export const channelsLeakFree = defineCheck({
  name: 'channels.no-secrets-or-internals',
  title: 'answers, headers, stream messages and webhook deliveries reveal no secret of the run and no internal detail',
  severity: 'MUST',
  section: 'Errors',
  tags: ['generated', 'leaks', 'security'],
  mutating: false,
  judgesRun: true,
  run: scanChannels,
});

export const channelChecks = [channelsLeakFree];
