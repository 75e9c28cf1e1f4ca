import { isDeepStrictEqual } from 'node:util';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { defineCheck } from '../runner/check.ts';
import { jsonDiff } from '../runner/json-diff.ts';
import { authenticatedGet } from './support/error-probes.ts';
import { documentOf, type OpenApiLike, operationsOf } from './support/openapi.ts';
import { publicGet } from './support/public-get.ts';
import { successSamples } from './support/samples.ts';

const dataOf = (ex: Exchange) => (ex.json as { data?: unknown } | undefined)?.data;
/** What must not differ between the two addresses: the operations (servers may name each address). */
const operationSet = (ex: Exchange) =>
  operationsOf((documentOf(ex.json) ?? {}) as OpenApiLike)
    .map((o) => `${o.method} ${o.path} ${o.op.operationId ?? ''}`)
    .sort();

/** A document without its `servers` lists (each address may name itself). */
const withoutServers = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(withoutServers)
    : v && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (k === 'servers' ? [] : [[k, withoutServers(x)]])))
      : v;
/** Prose and vendor extensions: an address may word its description otherwise; the interface is the rest. */
const PROSE = /(?:\.|\[")(?:description|summary|title|x-[^."\]]*)(?:"\])?$/;
/** Where two reads of the document differ, servers and prose aside. */
const documentDiff = (a: Exchange, b: Exchange) =>
  jsonDiff(withoutServers(documentOf(a.json)), withoutServers(documentOf(b.json)), Infinity).filter(
    (d) => !PROSE.test(d.path),
  );

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
const changes = (a: Exchange, b: Exchange) =>
  new Map(
    jsonDiff({ status: a.status, data: dataOf(a) }, { status: b.status, data: dataOf(b) }, Infinity).map((d) => [
      d.path,
      d,
    ]),
  );
const ABSENT = '(absent)';
/**
 * Whether the alternate answer is explained by the data moving on between two main reads: no field
 * differs from both the main answer before it and the main answer after it. A field whose value the main
 * address itself answers differently on the two reads, present in all three, is made per read (a proof
 * signed at each read, a server time): it is not compared, only its presence is. Such a field must also
 * differ between `after` and a third main read made at once (`again`): a state that moved once does not.
 * @example movedBetween(before, alt, after) // true when alt shows a state change that `after` also shows
 * @example movedBetween(before, alt, after, again) // also true when only a per-read signature differs
 */
export function movedBetween(before: Exchange, alt: Exchange, after: Exchange, again?: Exchange): boolean {
  const fromAfter = changes(after, alt);
  const present = (x: { expected: string; observed: string } | undefined) =>
    x !== undefined && x.expected !== ABSENT && x.observed !== ABSENT;
  const perRead = again ? [changes(before, after), changes(after, again)] : undefined;
  for (const [path, d] of changes(before, alt)) {
    if (perRead?.every((c) => present(c.get(path))) && present(d)) continue;
    if (fromAfter.has(path)) return false;
  }
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
  // Its tenant lists at two addresses moved with the run's own creations (the place scenario creates for
  // seconds): read once no check of the run writes.
  readsStill: true,
  async run(ctx) {
    const pairs: { what: string; main: Exchange; alt: Exchange; same: (a: Exchange, b: Exchange) => boolean }[] = [];
    const sameData = (a: Exchange, b: Exchange) => a.status === b.status && isDeepStrictEqual(dataOf(a), dataOf(b));
    const altBase = ctx.target.altBaseUrl ?? '';
    // Both answers compared with the alternate address read as the main one (the recorded exchange keeps what was
    // sent): an answer naming the address called reads the same at both, and so does one listing both addresses
    // alike at each (a self-description's base URLs).
    const asMain = (ex: Exchange): Exchange => ({ ...ex, json: rebased(ex.json, altBase, ctx.target.baseUrl) });
    const onMain = async (path: string, o: Parameters<typeof ctx.call>[2] = {}) =>
      asMain(await ctx.call('GET', path, o));
    const onAlt = async (path: string, o: Parameters<typeof ctx.call>[2] = {}) =>
      asMain(await ctx.call('GET', path, { ...o, base: 'alt' }));
    /**
     * Main and alternate reads of one path, read again while they differ: every field where the alternate
     * answer differs from the main answer read just before it must equal the main answer read just after
     * it (tenant data changes while other checks write: a connection activates, another is created), or
     * be one the main address makes anew on each read. Judged per field, because with four checks writing
     * at once a whole list is rarely identical across three reads on a loaded machine; retried with
     * growing pauses so a burst of writes can settle.
     */
    const settled = async (path: string, first: Exchange, o: Parameters<typeof ctx.call>[2] = {}) => {
      let main = asMain(first);
      let alt = await onAlt(path, o);
      let moved = false;
      for (let retry = 0; retry < PAUSES_MS.length && !sameData(main, alt); retry++) {
        const after = await onMain(path, o);
        moved = movedBetween(main, alt, after);
        if (!moved) moved = movedBetween(main, alt, after, await onMain(path, o));
        if (moved) break;
        await sleep(PAUSES_MS[retry] ?? 0);
        main = await onMain(path, o);
        alt = await onAlt(path, o);
      }
      return { what: `GET ${path}`, main, alt, same: (a: Exchange, b: Exchange) => moved || sameData(a, b) };
    };
    pairs.push(await settled(BASE_PATH, await publicGet(ctx, BASE_PATH), { credentials: 'none' }));
    const doc = `${BASE_PATH}/openapi.json`;
    const docMain = asMain(await publicGet(ctx, doc));
    const docAlt = await onAlt(doc, { credentials: 'none' });
    // The whole document, not only its operations (a parameter required on one address and optional on the
    // other is another interface): `servers` may name each address, and a field the main address writes
    // anew on each read (a generation time) is not compared.
    const docDiff = async () => {
      const diff = documentDiff(docMain, docAlt);
      if (!diff.length) return diff;
      const again = documentDiff(docMain, await onMain(doc, { credentials: 'none' }));
      return diff.filter((d) => !again.some((a) => a.path === d.path));
    };
    const docDiffs = await docDiff();
    pairs.push({
      what: `GET ${doc}`,
      main: docMain,
      alt: docAlt,
      same: (a, b) =>
        a.status === b.status && isDeepStrictEqual(operationSet(a), operationSet(b)) && docDiffs.length === 0,
    });
    const get = authenticatedGet();
    pairs.push({
      what: `GET ${get.path} without credentials`,
      main: await onMain(get.path, { credentials: 'none' }),
      alt: await onAlt(get.path, { credentials: 'none' }),
      same: (a, b) =>
        a.status === b.status &&
        (a.json as { error?: { code?: unknown } })?.error?.code ===
          (b.json as { error?: { code?: unknown } })?.error?.code,
    });
    if (ctx.target.hasToken) {
      for (const s of (await successSamples(ctx)).filter((x) => x.route.method === 'GET' && x.route.auth))
        pairs.push(await settled(s.route.path, s.ex));
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
            ? isDeepStrictEqual(operationSet(p.main), operationSet(p.alt))
              ? docDiffs.slice(0, 12)
              : jsonDiff(operationSet(p.main), operationSet(p.alt))
            : jsonDiff({ status: p.main.status, data: dataOf(p.main) }, { status: p.alt.status, data: dataOf(p.alt) }),
      });
    }
  },
});

export const baseUrlChecks = [altIdentical];
