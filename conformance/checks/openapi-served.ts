// openapi.json describes what the deployment serves: the schema it gives a request parameter accepts the
// values of the run's calls the deployment answered 200 (a description narrower than the service turns
// clients away from calls that work), and the schema it gives a response header accepts the values the
// answers carry (header values are text, read as OpenAPI's simple style reads them: "5" is an integer).
import { routeOf } from '../rules/exchange-scope.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { requireOpenApi } from './support/openapi.ts';
import { judgeServedBodies } from './support/openapi-served-bodies.ts';
import {
  currentVersion,
  judgeServedHeaders,
  judgeServedParameters,
  type RoutedExchange,
} from './support/openapi-served-judge.ts';
import { responseSchemas } from './support/response-schemas.ts';
import { successSamples } from './support/samples.ts';

const bodyShown = (body: unknown) => {
  const text = JSON.stringify(body);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
};
const shown = (v: string | string[]) => {
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

/**
 * The run's exchanges with interface endpoints answered under the current version: another version's
 * answers are described by that version's document. Made after the shared sample calls (a narrowed run).
 */
async function currentExchanges(ctx: CheckContext): Promise<RoutedExchange[]> {
  await successSamples(ctx);
  const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
  return ctx.exchanges().flatMap(({ ex }) => {
    const route = routeOf(ex, bases);
    return route && currentVersion(ex) ? [{ route, ex }] : [];
  });
}

export const parametersAdmitServed = defineCheck({
  name: 'openapi.parameters-admit-served',
  title:
    "openapi.json's schema of every header and query parameter of an interface operation accepts the values of the run's calls the deployment answered 200 (the tenant, Idempotency-Key, Service-Version, filters by its own catalog's values)",
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi'],
  mutating: false,
  // After the other checks: it judges the calls they made.
  judgesRun: true,
  async run(ctx: CheckContext) {
    const { doc } = await requireOpenApi(ctx);
    const answered = (await currentExchanges(ctx)).filter((a) => a.ex.status === 200);
    const tenants = [ctx.target.tenant, ctx.target.otherTenant].filter((t): t is string => !!t);
    const verdict = judgeServedParameters(doc, await responseSchemas(ctx), answered, tenants);
    ctx.note(`judged ${verdict.judged} parameter values of calls answered 200`);
    if (verdict.unjudged)
      ctx.note(
        `not judged: ${verdict.unjudged} values the kit made up (not the run's tenant, not within the contract's limits, not in the deployment's answers), e.g. ${verdict.examples.join(', ')}`,
      );
    for (const o of verdict.offenders)
      ctx.fail({
        expected: `openapi.json's schema of ${o.label} accepts the values the deployment serves (the description "of this interface")`,
        observed: `openapi.json${o.at} refuses ${shown(o.value)} (${o.errors}), a value the deployment answered 200 (${o.count} call${o.count === 1 ? '' : 's'} of the run)`,
        exchange: o.ex,
      });
  },
});

export const responseHeadersAdmitServed = defineCheck({
  name: 'openapi.response-headers-admit-served',
  title:
    "every response header openapi.json documents for an interface operation's status (X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After, …) has a schema that accepts the values the run's answers carry, read in the simple style",
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi', 'responses'],
  mutating: false,
  // After the other checks: it judges the answers they received.
  judgesRun: true,
  async run(ctx: CheckContext) {
    const { doc } = await requireOpenApi(ctx);
    const verdict = judgeServedHeaders(doc, await responseSchemas(ctx), await currentExchanges(ctx));
    if (verdict.judged === 0)
      ctx.skip(
        "openapi.json documents no response header of the interface's operations that the run's answers carry: nothing to judge",
      );
    ctx.note(`judged ${verdict.judged} documented response header values`);
    for (const o of verdict.offenders)
      ctx.fail({
        expected: `openapi.json's schema of the response header ${o.label} accepts the values the deployment sends`,
        observed: `openapi.json${o.at} refuses ${shown(o.value)} (${o.errors}; ${o.count} answer${o.count === 1 ? '' : 's'} of the run)`,
        exchange: o.ex,
      });
  },
});

export const bodiesAdmitServed = defineCheck({
  name: 'openapi.bodies-admit-served',
  title:
    "openapi.json's request body schema of every interface operation accepts the run's bodies the deployment answered 200 (fields the interface lists, values within its limits or from the deployment's own answers)",
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi'],
  mutating: false,
  // Every body the interface states is an authenticated call's.
  requires: ['token'],
  // After the other checks: it judges the calls they made.
  judgesRun: true,
  async run(ctx: CheckContext) {
    const { doc } = await requireOpenApi(ctx);
    const answered = (await currentExchanges(ctx)).filter((a) => a.ex.status === 200);
    const verdict = judgeServedBodies(doc, await responseSchemas(ctx), answered);
    if (verdict.unjudged.length)
      ctx.note(
        `not judged: the documented body schema of ${verdict.unjudged.join(', ')} cannot be validated (it refers to itself without end)`,
      );
    if (verdict.judged === 0)
      ctx.skip(
        'no JSON body of the run answered 200 is documented and within what the interface lists: nothing to judge',
      );
    ctx.note(`judged ${verdict.judged} request bodies answered 200`);
    for (const o of verdict.offenders)
      ctx.fail({
        expected: `openapi.json's request body schema of ${o.label} accepts the bodies the deployment takes (the description "of this interface")`,
        observed: `openapi.json${o.at} refuses ${bodyShown(o.body)} (${o.errors}), a body the deployment answered 200 (${o.count} call${o.count === 1 ? '' : 's'} of the run)`,
        exchange: o.ex,
      });
  },
});

export const openApiServedChecks = [parametersAdmitServed, responseHeadersAdmitServed, bodiesAdmitServed];
