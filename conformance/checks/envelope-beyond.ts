// "Success envelope (every JSON success response)": the endpoints the interface names without showing them (the
// webhooks' delivery log and its re-trigger, the sample first call's /info) and any other JSON read under the
// interface's path answer in the same envelope as the table's endpoints. Documents (a version file, a JWK set
// under /.well-known) are documents, and a token endpoint's answer is OAuth's: not answers of the interface.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { routeOf, sentCredentials } from '../rules/exchange-scope.ts';
import { successEnvelopeProblem } from '../rules/response-rules.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';

const isJson = (ex: Exchange) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(ex.headers['content-type'] ?? '');

/**
 * Whether the exchange is a JSON success of the deployment's own under the interface's path, beyond the table:
 * not a file (a last segment with an extension), not /.well-known, not a document (an OpenAPI object, a JWK set).
 * @example beyondContract(deliveryLogExchange, [base]) // true
 */
export function beyondContract(ex: Exchange, bases: readonly string[]): boolean {
  if (ex.status < 200 || ex.status >= 300 || ex.status === 204 || !isJson(ex)) return false;
  const base = bases.find((b) => ex.url.startsWith(`${b.replace(/\/+$/, '')}${BASE_PATH}/`));
  if (!base || routeOf(ex, bases)) return false;
  const path = new URL(ex.url).pathname;
  if (/\/\.well-known\//.test(path) || /\.[a-z0-9]+$/i.test(path.split('/').at(-1) ?? '')) return false;
  const json = ex.json as Record<string, unknown> | undefined;
  // An OAuth answer (a token endpoint under the interface path answers as RFC 6749 says) is no envelope either.
  const document = (k: string) => !!json && k in json;
  return (
    !!json &&
    typeof json === 'object' &&
    !Array.isArray(json) &&
    !['openapi', 'keys', 'access_token', 'issuer', 'token_endpoint'].some(document)
  );
}

export const envelopeBeyondContract = defineCheck({
  name: 'envelope.beyond-the-table',
  title:
    'every JSON success answer under /api/public/v1 beyond the endpoint table (the delivery log, a re-trigger, /info) carries the success envelope and its meta (requestId, version, at), a read never marked replayed',
  severity: 'MUST',
  section: 'Success envelope (every JSON success response)',
  tags: ['envelope'],
  mutating: false,
  // The endpoints beyond the table the kit reads (the delivery log, /info) are authenticated.
  requires: ['token'],
  // After the other checks: it judges the answers they received.
  judgesRun: true,
  async run(ctx: CheckContext) {
    const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
    const answers = ctx.exchanges().filter(({ ex }) => beyondContract(ex, bases));
    if (!answers.length)
      ctx.skip('the run read no JSON answer under the interface path beyond its endpoint table: nothing to judge');
    // A read repeats no operation: "replayed: true when the response comes from an earlier identical operation".
    const replayedRead = (ex: Exchange) =>
      ex.method === 'GET' && (ex.json as { meta?: { replayed?: unknown } } | undefined)?.meta?.replayed === true
        ? 'meta.replayed true on a read (no earlier identical operation to replay)'
        : undefined;
    const offenders = answers.flatMap(({ ex }) => {
      const problem = successEnvelopeProblem(ex) ?? replayedRead(ex);
      return problem ? [{ ex, problem }] : [];
    });
    const paths = [...new Set(answers.map(({ ex }) => `${ex.method} ${new URL(ex.url).pathname}`))];
    ctx.note(`judged ${answers.length} answers of ${paths.length} endpoints beyond the table`);
    const first = offenders[0];
    if (!first) return;
    ctx.fail({
      expected: `${first.ex.method} ${new URL(first.ex.url).pathname} answers in the success envelope ("every JSON success response": ok, data, meta with requestId, version, at)`,
      observed: `${first.problem} (${offenders.length} of ${answers.length} such answers)`,
      exchange: first.ex,
    });
  },
});

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining'];

export const rateLimitHeadersBeyond = defineCheck({
  name: 'responses.rate-limit-headers-beyond',
  title:
    "an authenticated success beyond the endpoint table (the delivery log, a re-trigger, /info) carries X-RateLimit-Limit and X-RateLimit-Remaining, as the table's endpoints do",
  // Rate limits are "configured per access, per tenant and per environment", not per endpoint, and the Limits
  // section names the headers for the interface's answers; which endpoints a deployment counts is not shown.
  severity: 'SHOULD',
  section: 'Limits',
  tags: ['limits'],
  mutating: false,
  requires: ['token'],
  judgesRun: true,
  async run(ctx: CheckContext) {
    const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
    const carries = (ex: Exchange) => RATE_HEADERS.every((h) => ex.headers[h] !== undefined);
    // Only where the deployment sends them on the table's endpoints (its missing there is another check's).
    const tableSends = ctx
      .exchanges()
      .some(({ ex }) => ex.status === 200 && sentCredentials(ex) && routeOf(ex, bases)?.auth && carries(ex));
    if (!tableSends)
      ctx.skip("no authenticated success of the table's endpoints carried the rate-limit headers: judged there");
    const answers = ctx.exchanges().filter(({ ex }) => sentCredentials(ex) && beyondContract(ex, bases));
    if (!answers.length) ctx.skip('the run read no authenticated answer beyond the endpoint table: nothing to judge');
    let offenders = answers.filter(({ ex }) => !carries(ex));
    // An endpoint served without a token (a public /info) counts no access: its answers need no window.
    const paths = [...new Set(offenders.filter(({ ex }) => ex.method === 'GET').map(({ ex }) => ex.url))];
    for (const url of paths.slice(0, 3)) {
      const bare = await ctx.call('GET', url, { credentials: 'none', retry: false });
      if (bare.status !== 200) continue;
      ctx.note(`GET ${new URL(url).pathname} answers 200 without a token too (public): its answers not judged`);
      offenders = offenders.filter(({ ex }) => ex.url !== url);
    }
    ctx.note(`judged ${answers.length} authenticated answers beyond the table`);
    const first = offenders[0];
    if (!first) return;
    ctx.fail({
      expected: `${first.ex.method} ${new URL(first.ex.url).pathname} carries X-RateLimit-Limit and X-RateLimit-Remaining like the table's endpoints (Limits: "Response headers")`,
      observed: `without ${RATE_HEADERS.filter((h) => first.ex.headers[h] === undefined).join(', ')} (${offenders.length} of ${answers.length} such answers)`,
      exchange: first.ex,
    });
  },
});
