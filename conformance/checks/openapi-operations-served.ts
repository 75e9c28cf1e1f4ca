// openapi.json documents operations the deployment serves: "the machine-readable description of this
// interface". An operation documented beyond the self-description (the document may list more) is asked once
// without credentials, so nothing can change: a served operation refuses it (401, 400, 428) or answers it,
// one the deployment does not serve answers "no such route" (404 or 405). Only paths without parameters are
// asked: there a 404 cannot be an unknown entry.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import { operationsOf, requireOpenApi } from './support/openapi.ts';
import { requireSelfDescribedRoutes, routeKey } from './support/self-description.ts';

/** Operations asked at most (a document listing hundreds is judged by its first ones). */
const MAX_ASKED = 12;

export const operationsServed = defineCheck({
  name: 'openapi.operations-served',
  title:
    'an operation openapi.json documents beyond the self-description is served: asked without credentials, it is refused or answered, not 404/405 (paths without parameters)',
  severity: 'SHOULD',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi', 'discovery'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { doc } = await requireOpenApi(ctx);
    const { routes } = await requireSelfDescribedRoutes(ctx);
    const described = new Set(routes.map(routeKey));
    const extra = operationsOf(doc).filter(
      (o) =>
        !described.has(routeKey(o)) &&
        !o.path.includes('{') &&
        (o.path === BASE_PATH || o.path.startsWith(`${BASE_PATH}/`)),
    );
    // Nothing beyond the self-description: every documented operation is one the deployment says it serves.
    if (!extra.length)
      return ctx.note('openapi.json documents no operation without parameters beyond the self-description');
    const unserved: { what: string; ex: Exchange }[] = [];
    for (const o of extra.slice(0, MAX_ASKED)) {
      // No credentials, no body: a served operation has nothing to act on and no one to act for.
      const ex = await ctx.call(o.method, o.path, { credentials: 'none', retry: false });
      if (ex.status === 404 || ex.status === 405) unserved.push({ what: `${o.method} ${o.path} (${ex.status})`, ex });
    }
    ctx.note(`asked ${Math.min(extra.length, MAX_ASKED)} operation(s) documented beyond the self-description`);
    const first = unserved[0];
    if (first)
      ctx.fail({
        expected:
          'every operation openapi.json documents is one the deployment serves ("the machine-readable description of this interface")',
        observed: `documented, but answered as no route without credentials: ${listed(unserved.map((u) => u.what))}`,
        exchange: first.ex,
      });
  },
});
