import fc from 'fast-check';
import { ENVIRONMENTS } from '../../simulator/contract/environment.ts';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import { creationBase, postConnection } from '../checks/support/connections.ts';
import { knownPair, successSamples } from '../checks/support/samples.ts';
import { tenantEchoRule } from '../rules/call-rules.ts';
import {
  capabilityFlagProblems,
  countAgreementRule,
  expiryAfterIssueRule,
  jsonCharsetRule,
  retryAfterSecondsRule,
} from '../rules/consistency-rules.ts';
import { routeOf, sentCredentials } from '../rules/exchange-scope.ts';
import { contractDataRule, idempotencyKeyEchoRule, requestEchoRule } from '../rules/generated-rules.ts';
import { interfaceRoutes } from '../rules/interface-routes.ts';
import { listAgreementProblems, type Routed } from '../rules/list-agreement.ts';
import type { ResponseRule } from '../rules/response-rules.ts';
import { type CheckContext, type CheckDef, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import type { InterfaceSection } from '../runner/sections.ts';
import { draw, matchingArb } from './draw.ts';
import { judgeKeyEchoOffRoute } from './key-echo-off-route.ts';
import { judgeKeyEchoRepeats } from './key-echo-repeats.ts';
import { operations } from './request-fields.ts';

const path = (id: string) => must(ROUTE_BY_ID.get(id), `the contract defines ${id}`).path;

/**
 * Calls that give the echo rules something to judge even in a run narrowed by --grep: a capability
 * check with a drawn environment and one without (the default), on each base URL; when modifying
 * calls are allowed, a key for a drawn operation name and a creation in a drawn environment.
 */
function echoCalls(ctx: CheckContext): Promise<void> {
  return ctx.shared('generated-echo-calls', () => makeEchoCalls(ctx));
}

async function makeEchoCalls(ctx: CheckContext) {
  await successSamples(ctx);
  if (!ctx.target.hasToken) return;
  // Every optional filter with a value no entry has: an empty list, so count-agreement judges one.
  for (const op of operations()) {
    const filter = op.fields.find((f) => f.in === 'query' && !f.required && f.type.type === 'string');
    if (op.route.method !== 'GET' || (op.route.kind ?? 'json') !== 'json' || !filter) continue;
    await ctx.call('GET', op.route.path, {
      credentials: op.route.auth ? 'token' : 'none',
      query: { [filter.name]: ctx.label('no-such') },
    });
  }
  await decisionPerKind(ctx);
  // The Accept values common clients send by default (a charset parameter, axios's list, */*): the same JSON
  // answers, judged by the same rules (a gateway wrapping or refusing one of them breaks them).
  const read = interfaceRoutes().find(
    (r) => r.auth && r.method === 'GET' && !r.path.includes('{') && (r.kind ?? 'json') === 'json',
  );
  if (read)
    for (const accept of ['application/json; charset=utf-8', 'application/json, text/plain, */*', '*/*'])
      await ctx.call('GET', read.path, { headers: { Accept: accept } });
  const pair = await knownPair(ctx);
  await earlierVersionCalls(ctx, pair);
  const [environment] = draw(fc.constantFrom(...ENVIRONMENTS), ctx.seed, 'echo.environment');
  const bases = ctx.target.altBaseUrl ? (['main', 'alt'] as const) : (['main'] as const);
  for (const base of bases) {
    if (pair) {
      await ctx.call('POST', path('checkCapability'), { base, json: { ...pair, environment } });
      await ctx.call('POST', path('checkCapability'), { base, json: pair });
    }
  }
  if (ctx.profile !== 'full') return;
  const [operation] = draw(matchingArb(/^[a-z]{3,10}\.[a-z]{3,10}$/), ctx.seed, 'echo.operation');
  await ctx.call('POST', path('createIdempotencyKey'), { json: { operation } });
  const base = await creationBase(ctx);
  // One creation per value of the enumeration, so an environment stored or answered as another is seen
  // (a deployment may refuse some environments: a refusal is not judged here).
  if (base)
    await Promise.all(
      ENVIRONMENTS.map((environment) => postConnection(ctx, { ...base, environment, scopeLabel: ctx.label('echo') })),
    );
  await ctx.call('GET', path('listConnections'));
}

/**
 * The tenant's reads and a capability check under every earlier published version: "no change that
 * requires adaptation of clients exists", so their answers are the same resources, judged by the same
 * rules (a refusal of the version itself is the deployment's choice, and not judged here); and the
 * second tenant's reads.
 */
async function earlierVersionCalls(ctx: CheckContext, pair: { connectorId: string; capability: string } | undefined) {
  const reads = interfaceRoutes().filter(
    (r) => r.auth && r.method === 'GET' && !r.fieldsNotShown && !r.path.includes('{') && (r.kind ?? 'json') === 'json',
  );
  for (const version of SUPPORTED_VERSIONS.slice(1)) {
    const headers = { 'Service-Version': version };
    for (const r of reads) await ctx.call('GET', r.path, { headers });
    if (pair) await ctx.call('POST', path('checkCapability'), { headers, json: pair });
  }
  // The same reads for the second tenant: its catalog and list are judged by the same rules (a count that
  // disagrees with its list, a field of another type) as the first tenant's.
  const other = ctx.target.otherTenant;
  if (other) for (const r of reads) await ctx.call('GET', r.path, { tenant: other });
}

/**
 * One capability check per kind of capability the catalog offers (each pair of its critical and
 * idempotencyRequired flags), with a connector offering it, without an environment and in each: a
 * deployment that answers some kinds or environments differently (a critical capability's decision
 * without its reason, production decisions with other flags) is judged on each.
 */
async function decisionPerKind(ctx: CheckContext) {
  const samples = await successSamples(ctx);
  const listed = (id: string, field: string) => {
    const d = (samples.find((s) => s.route.id === id)?.ex.json as { data?: Record<string, unknown> } | undefined)?.data;
    const list = d?.[field];
    return (Array.isArray(list) ? list : []) as Record<string, unknown>[];
  };
  const connectors = listed('listConnectors', 'connectors');
  const kinds = new Map<string, { connectorId: string; capability: string }>();
  for (const cap of listed('listCapabilities', 'capabilities')) {
    const kind = `${String(cap.critical)}/${String(cap.idempotencyRequired)}`;
    const offering = connectors.find((c) => Array.isArray(c.capabilities) && c.capabilities.includes(cap.id));
    if (!kinds.has(kind) && typeof cap.id === 'string' && typeof offering?.id === 'string')
      kinds.set(kind, { connectorId: offering.id, capability: cap.id });
  }
  // In every environment value too: a decision's flags are the capability's, whatever environment is asked.
  for (const pair of kinds.values())
    for (const environment of [undefined, ...ENVIRONMENTS])
      await ctx.call('POST', path('checkCapability'), { json: environment ? { ...pair, environment } : pair });
}

/** The run's connections lists against their creations (list-agreement.ts). */
function judgeListAgreement(ctx: CheckContext) {
  const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
  const routed = ctx
    .exchanges()
    .map(({ ex }) => ({ ex, route: routeOf(ex, bases) }))
    .filter((r): r is Routed => r.route !== undefined);
  const problems = listAgreementProblems(routed);
  const first = problems[0];
  if (first)
    ctx.fail({
      expected: `GET ${path('listConnections')} lists a connection the kit created only to its tenant, with the fields and createdAt of its creation, and no copy of it under another id ("Production data must never be copied into the sandbox")`,
      observed: `${first.problem} (${problems.length} listings)`,
      exchange: first.ex,
    });
}

async function judgeAll(ctx: CheckContext, rule: ResponseRule, expected: string, applies: (id: string) => boolean) {
  await echoCalls(ctx);
  const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
  let judged = 0;
  const offenders: { check: string; problem: string; ex: Parameters<ResponseRule>[0] }[] = [];
  for (const { check, ex } of ctx.exchanges()) {
    const route = routeOf(ex, bases);
    if (!route || !applies(route.id)) continue;
    judged++;
    const problem = rule(ex, { route, authenticated: sentCredentials(ex), secrets: [] });
    if (problem) offenders.push({ check, problem, ex });
  }
  // A check judging the run as a whole (no rule per answer) says what it judged itself.
  if (judged) ctx.note(`judged ${judged} answers`);
  const first = offenders[0];
  if (!first) return;
  ctx.fail({
    expected: `${first.ex.method} ${new URL(first.ex.url).pathname}: ${expected}`,
    observed: `${first.problem} (${offenders.length} of ${judged} answers; made by ${[...new Set(offenders.map((o) => o.check))].slice(0, 4).join(', ')})`,
    exchange: first.ex,
  });
}

/** The first answer of the run that states other capability flags than an earlier one (consistency-rules.ts). */
function judgeCapabilityFlags(ctx: CheckContext) {
  const problems = capabilityFlagProblems(ctx.exchanges().map(({ ex }) => ex));
  const first = problems[0];
  if (first)
    ctx.fail({
      expected:
        'a capability carries the same critical and idempotencyRequired flags in the catalog, in decisions and in connections',
      observed: `${first.problem} (${problems.length} answers)`,
      exchange: first.ex,
    });
}

/** A generated check that applies `rule` to every answer of the run, then `runWide` (if any) to the run. */
export function judged(
  name: string,
  section: InterfaceSection,
  title: string,
  rule: ResponseRule,
  applies: (id: string) => boolean = () => true,
  runWide?: (ctx: CheckContext) => void,
  severity: 'MUST' | 'SHOULD' = 'MUST',
): CheckDef {
  return defineCheck({
    name: `generated.${name}`,
    title: `every answer of the run: ${title}`,
    severity,
    section,
    tags: ['generated', 'responses'],
    mutating: false,
    judgesRun: true,
    async run(ctx) {
      await judgeAll(ctx, rule, title, applies);
      runWide?.(ctx);
    },
  });
}

/** Rules derived from the contract, judged on every answer of the run. */
export const judgedChecks: CheckDef[] = [
  judged(
    'contract-data',
    'Resources and their fields',
    "a 200 answer's data has every field the contract's resource gives it, of its type, format and range",
    contractDataRule,
  ),
  judged(
    'request-echo',
    'Connection',
    'the fields a creation or capability check sends come back unchanged (environment "default sandbox" when left out), in the answer and in every later list of its tenant (and in no other tenant\'s, and never copied under another id); data.tenant is the tenant of the call',
    (ex, info) => requestEchoRule(ex, info) ?? tenantEchoRule(ex, info),
    () => true,
    judgeListAgreement,
  ),
  judged(
    'idempotency-key-echo',
    'Meta',
    'meta.idempotencyKey is the key sent with the call (a read sent without one reports none); a replay (meta.replayed true) sets it, and a call sent again and answered alike names it where the first answer did; no conflict, missing-key refusal or keyless call is marked replayed',
    idempotencyKeyEchoRule,
    () => true,
    (ctx) => {
      judgeKeyEchoOffRoute(ctx);
      judgeKeyEchoRepeats(ctx);
    },
  ),
  judged(
    'count-agreement',
    'Endpoints',
    "a list answer's count is the number of entries it lists, each entry once (every tenant, filter and base URL)",
    countAgreementRule,
  ),
  judged(
    'key-expiry-after-issue',
    'Idempotency key result',
    "a key issued by POST /idempotency-keys expires after the answer's meta.at",
    expiryAfterIssueRule,
  ),
  judged(
    'json-utf-8',
    'Success envelope (every JSON success response)',
    'a JSON answer that names a charset names UTF-8 (RFC 8259)',
    jsonCharsetRule,
    () => true,
    undefined,
    'SHOULD',
  ),
  judged(
    'capability-flags-agree',
    'CapabilityDecision (all fields required)',
    'a capability has the same critical and idempotencyRequired flags in the catalog, decisions and connections',
    () => undefined,
    () => false,
    judgeCapabilityFlags,
    'SHOULD',
  ),
  judged(
    'retry-after-plausible',
    'Limits',
    "a 429's Retry-After is a wait in seconds of at most an hour (a larger one suggests milliseconds)",
    retryAfterSecondsRule,
    () => true,
    undefined,
    'SHOULD',
  ),
];
