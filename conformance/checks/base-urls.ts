import { isDeepStrictEqual } from 'node:util';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { defineCheck } from '../runner/check.ts';
import { jsonDiff } from '../runner/json-diff.ts';
import { authenticatedGet } from './support/error-probes.ts';
import { operationsOf, type OpenApiLike } from './support/openapi.ts';
import { publicGet } from './support/public-get.ts';
import { successSamples } from './support/samples.ts';

const dataOf = (ex: Exchange) => (ex.json as { data?: unknown } | undefined)?.data;
/** What must not differ between the two addresses: the operations (servers may name each address). */
const operationSet = (ex: Exchange) =>
  operationsOf((ex.json ?? {}) as OpenApiLike)
    .map((o) => `${o.method} ${o.path} ${o.op.operationId ?? ''}`)
    .sort();

/**
 * The alternate address's answer as the main address would write it: links a deployment builds from the
 * request's own address (a token URL, a self link) name the address that was called, which is the same
 * interface, so every string naming the alternate base URL or origin is read as naming the main one.
 * @example rebased({ tokenUrl: 'https://alt.example/oauth/token' }, 'https://alt.example', 'https://api.example')
 */
export function rebased(value: unknown, altBase: string, mainBase: string): unknown {
  const origin = (u: string) => {
    try {
      return new URL(u).origin;
    } catch {
      return u;
    }
  };
  const pairs: [string, string][] = [
    [altBase.replace(/\/+$/, ''), mainBase.replace(/\/+$/, '')],
    [origin(altBase), origin(mainBase)],
  ];
  const text = (t: string) => pairs.reduce((acc, [from, to]) => (from ? acc.split(from).join(to) : acc), t);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

/** Pauses before fresh main/alternate reads when a tenant-data answer differed (about 3 s in all). */
const PAUSES_MS = [0, 100, 300, 800, 1_800];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const changedPaths = (a: Exchange, b: Exchange) =>
  new Set(
    jsonDiff({ status: a.status, data: dataOf(a) }, { status: b.status, data: dataOf(b) }, Infinity).map((d) => d.path),
  );
/**
 * Whether the alternate answer is explained by the data moving on between two main reads: no field
 * differs from both the main answer before it and the main answer after it.
 * @example movedBetween(before, alt, after) // true when alt shows a state change that `after` also shows
 */
export function movedBetween(before: Exchange, alt: Exchange, after: Exchange): boolean {
  const fromAfter = changedPaths(after, alt);
  for (const path of changedPaths(before, alt)) if (fromAfter.has(path)) return false;
  return true;
}

export const altIdentical = defineCheck({
  name: 'base-urls.alt-identical',
  title: 'the alternate base URL answers like the main one (status, data, documented operations)',
  severity: 'MUST',
  section: 'Network Connections Service Interface',
  tags: ['base-urls'],
  mutating: false,
  requires: ['alt-base-url'],
  async run(ctx) {
    const pairs: { what: string; main: Exchange; alt: Exchange; same: (a: Exchange, b: Exchange) => boolean }[] = [];
    const sameData = (a: Exchange, b: Exchange) => a.status === b.status && isDeepStrictEqual(dataOf(a), dataOf(b));
    const altBase = ctx.target.altBaseUrl ?? '';
    // Compared as the main address would have written it (the recorded exchange keeps what was sent).
    const onAlt = async (path: string, o: Parameters<typeof ctx.call>[2] = {}) => {
      const ex = await ctx.call('GET', path, { ...o, base: 'alt' });
      return { ...ex, json: rebased(ex.json, altBase, ctx.target.baseUrl) };
    };
    pairs.push({
      what: `GET ${BASE_PATH}`,
      main: await publicGet(ctx, BASE_PATH),
      alt: await onAlt(BASE_PATH, { credentials: 'none' }),
      same: sameData,
    });
    const doc = `${BASE_PATH}/openapi.json`;
    pairs.push({
      what: `GET ${doc}`,
      main: await publicGet(ctx, doc),
      alt: await onAlt(doc, { credentials: 'none' }),
      same: (a, b) => a.status === b.status && isDeepStrictEqual(operationSet(a), operationSet(b)),
    });
    const get = authenticatedGet();
    pairs.push({
      what: `GET ${get.path} without credentials`,
      main: await ctx.call('GET', get.path, { credentials: 'none' }),
      alt: await onAlt(get.path, { credentials: 'none' }),
      same: (a, b) =>
        a.status === b.status &&
        (a.json as { error?: { code?: unknown } })?.error?.code ===
          (b.json as { error?: { code?: unknown } })?.error?.code,
    });
    if (ctx.target.hasToken) {
      for (const s of (await successSamples(ctx)).filter((x) => x.route.method === 'GET' && x.route.auth)) {
        // Tenant data changes while other checks write (a connection activates, another is created):
        // every field where the alternate answer differs from the main answer read just before it must
        // equal the main answer read just after it. Judged per field, because with four checks writing
        // at once a whole list is rarely identical across three reads on a loaded machine; retried with
        // growing pauses so a burst of writes can settle.
        let main = s.ex;
        let alt = await onAlt(s.route.path);
        let moved = false;
        for (let retry = 0; retry < PAUSES_MS.length && !sameData(main, alt); retry++) {
          const after = await ctx.call('GET', s.route.path);
          moved = movedBetween(main, alt, after);
          if (moved) break;
          await sleep(PAUSES_MS[retry] ?? 0);
          main = await ctx.call('GET', s.route.path);
          alt = await onAlt(s.route.path);
        }
        pairs.push({ what: `GET ${s.route.path}`, main, alt, same: (a, b) => moved || sameData(a, b) });
      }
    }
    for (const p of pairs) {
      ctx.expect.that(p.same(p.main, p.alt), {
        expected: `${p.what} answers the same on ${ctx.target.altBaseUrl} as on ${ctx.target.baseUrl}`,
        observed:
          p.main.status !== p.alt.status
            ? `status ${p.alt.status} on the alternate URL, ${p.main.status} on the main one`
            : 'the payload differs (diff: main URL expected, alternate URL observed)',
        exchange: p.alt,
        diff:
          p.what === `GET ${doc}`
            ? jsonDiff(operationSet(p.main), operationSet(p.alt))
            : jsonDiff({ status: p.main.status, data: dataOf(p.main) }, { status: p.alt.status, data: dataOf(p.alt) }),
      });
    }
  },
});

export const baseUrlChecks = [altIdentical];
