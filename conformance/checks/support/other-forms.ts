import type { RouteDef } from '../../../simulator/contract/route-def.ts';
import type { Exchange } from '../../client/http-client.ts';
import { inBatches, interfaceQuery, interfaceRoutes } from '../../rules/interface-routes.ts';
import type { CallOptions, CheckContext } from '../../runner/check.ts';
import { jsonDiff } from '../../runner/json-diff.ts';
import { successSamples } from './samples.ts';

/**
 * The same request in a form a client library, a proxy or a person may send: the route's path with a
 * trailing slash or with a letter percent-encoded (RFC 3986 §6.2.2.2: the same resource to a normaliser),
 * HEAD for a GET (RFC 9110 §9.3.2: the GET's answer without its body), a query parameter sent twice with
 * one value. A deployment may take each form as the route or as no route; what it may not do is answer
 * it as a third thing (a success the route refuses, a success other than the route's).
 */
export interface OtherForm {
  /** e.g. "GET /api/public/v1/providers/ without credentials". */
  what: string;
  route: RouteDef;
  /** The route's own answer to the same call. */
  ref: Exchange;
  ex: Exchange;
  /** Where a success must also carry the route's data (a catalog or the self-description: data that stays). */
  sameData: boolean;
  /** HEAD: the status only. */
  head: boolean;
  /** The path as this form sent it (an answer naming its own path names the form's). */
  path?: string;
  /** Where two reads of the route itself differ (a time stamped per read): not compared. */
  perRead?: readonly string[];
}

/** The route's path with a trailing slash, and with its last segment's first character percent-encoded. */
export const PATH_FORMS: readonly { name: string; path: (p: string) => string }[] = [
  { name: 'with a trailing slash', path: (p) => `${p}/` },
  {
    name: 'with a percent-encoded letter',
    path: (p) => {
      const i = p.lastIndexOf('/') + 1;
      return `${p.slice(0, i)}%${(p.codePointAt(i) ?? 0).toString(16).toUpperCase()}${p.slice(i + 1)}`;
    },
  },
];

const dataOf = (ex: Exchange) => (ex.json as { data?: unknown } | undefined)?.data;
/** Whether a form's success carries the route's data (HEAD has no body to compare). */
/** The form's data as the route would write it: its own path, where it names it, read as the route's. */
const asRoute = (f: OtherForm) => {
  const data = dataOf(f.ex);
  if (!f.path || f.path === f.route.path || data === undefined) return data;
  // Whole occurrences only: `/api/public/v1/` is also the start of every other route's path.
  const own = new RegExp(`${f.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.~%-])`, 'g');
  return JSON.parse(JSON.stringify(data).replace(own, f.route.path)) as unknown;
};
/** Where a form's success differs from the route's answer, per-read fields aside. */
export const dataDiff = (f: OtherForm) =>
  jsonDiff(dataOf(f.ref), asRoute(f), Infinity).filter((d) => !f.perRead?.includes(d.path));
export const sameAnswer = (f: OtherForm) => f.head || !f.sameData || dataDiff(f).length === 0;

/** A value the route's own sample answer shows for a query parameter (`category`, `capability` from `capabilities`). */
function sampleValue(ex: Exchange | undefined, name: string): string | undefined {
  const data = dataOf(ex ?? ({} as Exchange)) as Record<string, unknown> | undefined;
  const list = Object.values(data ?? {}).find((v): v is Record<string, unknown>[] => Array.isArray(v) && !!v[0]);
  const first = list?.[0];
  const v = first?.[name] ?? (Array.isArray(first?.[`${name}s`]) ? (first[`${name}s`] as unknown[])[0] : undefined);
  if (typeof v === 'string') return v;
  // A number the kit picks: 1, within any page size a deployment documents (it may clamp larger ones).
  return name === 'limit' ? '1' : undefined;
}

/**
 * Sends every other form of every interface route (streams aside), at the main address and, where the
 * run has one, at the alternate address, once per run; the calls each form is compared with go beside.
 * @example const forms = await otherForms(ctx); forms.filter((f) => f.ex.status >= 500)
 */
export function otherForms(ctx: CheckContext): Promise<OtherForm[]> {
  return ctx.shared('other-forms', async () => {
    const routes = interfaceRoutes().filter((r) => (r.kind ?? 'json') !== 'sse' && !r.path.includes('{'));
    const samples = ctx.target.hasToken ? await successSamples(ctx) : [];
    const bases: CallOptions['base'][] = ctx.target.altBaseUrl ? ['main', 'alt'] : ['main'];
    const out: OtherForm[] = [];
    const where = (base: CallOptions['base']) => (base === 'alt' ? ' at the alternate base URL' : '');
    for (const base of bases)
      await inBatches(routes, 2, async (route) => {
        const calls: { how: string; o: CallOptions }[] = [];
        // Without credentials: the route refuses (401); no form of it may answer with success instead.
        if (route.auth)
          calls.push({
            how: 'without credentials',
            o: { credentials: 'none', ...(route.method === 'POST' ? { json: {} } : {}) },
          });
        if (route.method === 'GET' && (!route.auth || ctx.target.hasToken))
          calls.push({ how: route.auth ? 'with credentials' : '', o: { credentials: route.auth ? 'token' : 'none' } });
        // Data that stays between two reads: the self-description's and the catalog's (tenant lists move).
        const stays =
          route.method === 'GET' &&
          (route.kind ?? 'json') === 'json' &&
          (!route.auth || route.tags.includes('catalog'));
        for (const { how, o } of calls) {
          const call = { ...o, base };
          const ref = await ctx.call(route.method, route.path, call);
          const say = (m: string, p: string) => `${m} ${p}${where(base)}${how ? ` ${how}` : ''}`;
          for (const form of PATH_FORMS) {
            const path = form.path(route.path);
            const ex = await ctx.call(route.method, path, call);
            const f: OtherForm = {
              what: `${say(route.method, path)} (${form.name})`,
              route,
              ref,
              ex,
              sameData: stays,
              head: false,
              path,
            };
            // Differing data is checked against a second read of the route: what it stamps per read is not judged.
            if (stays && ex.status === 200 && ref.status === 200 && !sameAnswer(f)) {
              const again = await ctx.call(route.method, route.path, call);
              f.perRead = jsonDiff(dataOf(ref), dataOf(again), Infinity).map((d) => d.path);
            }
            out.push(f);
          }
          if (route.method === 'GET') {
            const ex = await ctx.call('HEAD', route.path, call);
            out.push({ what: say('HEAD', route.path), route, ref, ex, sameData: false, head: true });
          }
        }
        // One query parameter sent twice with one value: the same filter as sent once (home only).
        const sample = samples.find((s) => s.route.id === route.id)?.ex;
        if (base === 'main' && route.method === 'GET' && sample)
          for (const name of interfaceQuery(route)) {
            const value = sampleValue(sample, name);
            if (value === undefined) continue;
            const once = `${route.path}?${new URLSearchParams({ [name]: value })}`;
            const ref = await ctx.call('GET', once);
            const twice = `${once}&${new URLSearchParams({ [name]: value })}`;
            out.push({
              what: `GET ${twice} (${name} twice)`,
              route,
              ref,
              ex: await ctx.call('GET', twice),
              sameData: stays,
              head: false,
            });
          }
      });
    return out;
  });
}
