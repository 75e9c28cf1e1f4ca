// "Success envelope (every JSON success response)": the endpoints the interface names without showing them (the
// webhooks' delivery log and its re-trigger, the sample first call's /info) and any other JSON read under the
// interface's path answer in the same envelope as the table's endpoints. Documents (a version file, a JWK set
// under /.well-known) are documents, and a token endpoint's answer is OAuth's: not answers of the interface.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { routeOf } from '../rules/exchange-scope.ts';
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
    'every JSON success answer under /api/public/v1 beyond the endpoint table (the delivery log, a re-trigger, /info) carries the success envelope and its meta (requestId, version, at)',
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
    const offenders = answers.flatMap(({ ex }) => {
      const problem = successEnvelopeProblem(ex);
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
