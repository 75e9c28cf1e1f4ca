import { CURRENT_VERSION } from '../../simulator/contract/versions.ts';
import { bodyEchoProblem } from '../rules/body-echo.ts';
import { routeOf, sentCredentials } from '../rules/exchange-scope.ts';
import {
  codeStatusRule,
  envelopeRule,
  jsonContentTypeRule,
  metaRule,
  noLeaksRule,
  type ResponseRule,
  rateLimitHeadersRule,
  requestIdHeaderRule,
} from '../rules/response-rules.ts';
import { type CheckContext, type CheckDef, defineCheck } from '../runner/check.ts';
import type { InterfaceSection } from '../runner/sections.ts';
import { errorProbes } from './support/error-probes.ts';
import { successSamples } from './support/samples.ts';

/**
 * Judges every exchange of the run with one rule and reports the first offender (its curl repeats
 * it). The shared samples and error probes are made first, so a run narrowed by --grep still has
 * answers to judge; they cost nothing more when other checks already made them.
 */
type Offender = { check: string; problem: string; ex: Parameters<ResponseRule>[0] };

async function judgeAll(
  ctx: CheckContext,
  rule: ResponseRule,
  expected: string,
  confirm?: (ctx: CheckContext, offenders: Offender[]) => Promise<Offender[]>,
) {
  await Promise.all([successSamples(ctx), errorProbes(ctx)]);
  const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
  const secrets = ctx
    .secrets()
    .map((value, i) => ({ value, what: `secret #${i + 1} of the run (a token or client secret)` }));
  let judged = 0;
  let offenders: Offender[] = [];
  for (const { check, ex } of ctx.exchanges()) {
    const route = routeOf(ex, bases);
    if (!route) continue;
    judged++;
    const problem = rule(ex, { route, authenticated: sentCredentials(ex), secrets });
    if (problem) offenders.push({ check, problem, ex });
  }
  ctx.note(`judged ${judged} answers of interface endpoints`);
  if (confirm && offenders.length) offenders = await confirm(ctx, offenders);
  const first = offenders[0];
  if (!first) return;
  const checks = [...new Set(offenders.map((o) => o.check))].slice(0, 5).join(', ');
  ctx.fail({
    expected: `${first.ex.method} ${new URL(first.ex.url).pathname}: ${expected}`,
    observed: `${first.problem} (${offenders.length} of ${judged} answers break the rule; made by ${checks})`,
    exchange: first.ex,
  });
}

/** How many kinds of refusal (method, route, status, code) are asked again without the token, at most. */
const PRE_AUTH_PROBES = 4;

/**
 * Leaves out refusals the deployment makes before it authenticates the call: the same request sent again
 * without its token gets the same status and code (a Service-Version or body check in front of the token
 * check). Rate limits are "configured per access": before authentication no access is known to count
 * against, so no window can be reported. One probe per kind of refusal, for the first few kinds.
 */
async function refusedAfterAuthentication(ctx: CheckContext, offenders: Offender[]): Promise<Offender[]> {
  const kinds = new Map<string, Offender[]>();
  for (const o of offenders) {
    const kind = `${o.ex.method} ${new URL(o.ex.url).pathname} ${o.ex.status} ${errorCodeOf(o.ex) ?? ''}`;
    kinds.set(kind, [...(kinds.get(kind) ?? []), o]);
  }
  const kept: Offender[] = [];
  let before = 0;
  for (const [i, group] of [...kinds.values()].entries()) {
    const first = group[0];
    if (!first) continue;
    // A read-only run sends nothing modifying again, refused or not.
    if (i >= PRE_AUTH_PROBES || (ctx.profile === 'read-only' && first.ex.method !== 'GET')) {
      kept.push(...group);
      continue;
    }
    const headers = Object.fromEntries(
      Object.entries(first.ex.requestHeaders).filter(([name]) => name.toLowerCase() !== 'authorization'),
    );
    const again = await ctx.call(first.ex.method, first.ex.url, {
      credentials: 'none',
      headers,
      defaultHeaders: false,
      retry: false,
      ...(first.ex.requestBody !== undefined ? { body: first.ex.requestBody } : {}),
    });
    if (again.status === first.ex.status && errorCodeOf(again) === errorCodeOf(first.ex)) before += group.length;
    else kept.push(...group);
  }
  if (before)
    ctx.note(
      `${before} answer(s) without the headers were refusals made before authentication (the same request without its token got the same answer): no access to count against yet, not judged`,
    );
  return kept;
}

const errorCodeOf = (ex: Parameters<ResponseRule>[0]) =>
  (ex.json as { error?: { code?: unknown } } | undefined)?.error?.code;

/** A success, or an answer that says how many calls are left: the deployment counted it. */
const counted = (ex: Parameters<ResponseRule>[0]) =>
  ex.status === 200 || ex.headers['x-ratelimit-remaining'] !== undefined;

function responseRule(
  name: string,
  severity: 'MUST' | 'SHOULD',
  section: InterfaceSection,
  title: string,
  rule: ResponseRule,
  confirm?: (ctx: CheckContext, offenders: Offender[]) => Promise<Offender[]>,
): CheckDef {
  return defineCheck({
    name: `responses.${name}`,
    title: `every answer of the run: ${title}`,
    severity,
    section,
    tags: ['responses', 'envelope'],
    mutating: false,
    judgesRun: true,
    run: (ctx) => judgeAll(ctx, rule, title, confirm),
  });
}

/** The response rules: applied to every answer any check of the run received from an interface endpoint. */
export const responseChecks = [
  responseRule(
    'envelope',
    'MUST',
    'Success envelope (every JSON success response)',
    'a success answers 200 with {ok: true, data: object, meta}; an error with {ok: false, error: {code, message}, meta}',
    envelopeRule,
  ),
  responseRule(
    'meta-fields',
    'MUST',
    'Meta',
    `meta carries requestId, version and at (date-time); Service-Version: ${CURRENT_VERSION} is answered as that version`,
    metaRule,
  ),
  responseRule(
    'code-status',
    'MUST',
    'Errors',
    'error.code is a code of the Errors table, sent with the status the table pairs with it',
    codeStatusRule,
  ),
  responseRule(
    'json-content-type',
    'MUST',
    'Success envelope (every JSON success response)',
    'an envelope is served with a JSON content type (application/json)',
    jsonContentTypeRule,
  ),
  responseRule(
    'request-id-header',
    'SHOULD',
    'Meta',
    'a header naming the request id (X-Request-Id, Request-Id), where the deployment sends one, names meta.requestId',
    requestIdHeaderRule,
  ),
  responseRule(
    'no-leaks',
    'MUST',
    'Errors',
    'no token or secret of the run in any answer; no stack trace or source path in an error',
    noLeaksRule,
  ),
  responseRule(
    'error-keeps-body',
    'SHOULD',
    'Errors',
    'an error answer does not send the refused request body back ("no tokens or raw data are to be sent along"): it names what was wrong',
    bodyEchoProblem,
  ),
  // The interface names the headers, not which answers carry them: only an answer the deployment
  // demonstrably counted (a success, or one that reports X-RateLimit-Remaining) must; an error refused
  // before counting (a malformed body turned away before authentication) need not.
  responseRule(
    'rate-limit-headers',
    'MUST',
    'Limits',
    'an authenticated answer that was counted (a 200, or one reporting X-RateLimit-Remaining) carries X-RateLimit-Limit and X-RateLimit-Remaining',
    (ex, info) => (counted(ex) ? rateLimitHeadersRule(ex, info) : undefined),
  ),
  responseRule(
    'rate-limit-headers-uncounted',
    'SHOULD',
    'Limits',
    'other authenticated answers (errors a deployment may refuse before counting, though not those it refuses before authentication: the same request without its token answered alike) carry X-RateLimit-Limit and X-RateLimit-Remaining too',
    (ex, info) => (counted(ex) ? undefined : rateLimitHeadersRule(ex, info)),
    refusedAfterAuthentication,
  ),
];
