// A read the deployment documents beyond the interface's table (the sample's GET /info, a status or a
// version route) is a safe call: asked with credentials, it answers, or refuses with one of the interface's
// statuses, but a fault on the service side ("internal: operational disturbance") is no answer a client can
// build on when it comes every time. What such a read returns is the deployment's ("its response: not
// shown"), so only a lasting 5xx is judged, and as a SHOULD: 500 is among the statuses any endpoint may give.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { interfaceRoutes } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import { operationsOf, requireOpenApi } from './support/openapi.ts';
import { requireSelfDescribedRoutes, routeKey } from './support/self-description.ts';

/** Reads asked at most (a document listing hundreds is judged by its first ones). */
const MAX_ASKED = 8;

/** Whether a documented operation answers a stream (never asked: it would not end). */
const streams = (op: unknown): boolean => JSON.stringify(op ?? {}).includes('text/event-stream');

export const documentedReads = defineCheck({
  name: 'responses.documented-reads-answer',
  title:
    'a GET the deployment documents or self-describes beyond the interface (paths without parameters, no streams) does not answer 5xx to a valid call each time it is asked',
  severity: 'SHOULD',
  section: 'Errors',
  tags: ['errors', 'discovery'],
  mutating: false,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const { doc } = await requireOpenApi(ctx);
    const { routes } = await requireSelfDescribedRoutes(ctx);
    const known = new Set(interfaceRoutes().map(routeKey));
    const documented = operationsOf(doc).filter((o) => o.method === 'GET');
    const reads = new Map<string, string>();
    for (const r of [...documented, ...routes.filter((x) => x.method.toUpperCase() === 'GET')]) {
      const key = routeKey({ method: 'GET', path: r.path });
      const op = documented.find((o) => o.path === r.path)?.op;
      const own = r.path === BASE_PATH || r.path.startsWith(`${BASE_PATH}/`);
      if (!own || known.has(key) || r.path.includes('{') || /\/stream$/.test(r.path) || streams(op)) continue;
      reads.set(key, r.path);
    }
    if (!reads.size) ctx.skip('no read without parameters documented or self-described beyond the interface');
    const failing: { what: string; ex: Exchange }[] = [];
    for (const path of [...reads.values()].slice(0, MAX_ASKED)) {
      const first = await ctx.call('GET', path, { retry: false });
      if (first.status < 500) continue;
      // Asked once more: a passing disturbance is not a read that always fails.
      const again = await ctx.call('GET', path, { retry: false });
      if (again.status >= 500) failing.push({ what: `GET ${path} (${first.status}, then ${again.status})`, ex: again });
    }
    ctx.note(`asked ${Math.min(reads.size, MAX_ASKED)} read(s) beyond the interface: ${listed([...reads.values()])}`);
    const worst = failing[0];
    if (worst)
      ctx.fail({
        expected:
          'a read the deployment documents answers a valid call (any status but a fault: "internal: fault on the service side", an operational disturbance, not the answer of a documented route)',
        observed: `answered 5xx twice: ${listed(failing.map((f) => f.what))}`,
        exchange: worst.ex,
      });
  },
});
