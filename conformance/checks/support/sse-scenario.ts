import { ROUTE_BY_ID } from '../../../simulator/contract/route-table.ts';
import type { Exchange } from '../../client/http-client.ts';
import type { SseEvent, SseSession } from '../../client/sse-stream.ts';
import type { CallOptions, CheckContext } from '../../runner/check.ts';
import { createLabelledConnection } from './connections.ts';
import { namesValue } from './names-value.ts';
import { earlierVersionPlace, type Place } from './places.ts';

/** Connections the kit creates to make messages on the tenant's feed. */
export const KIT_EVENTS = 3;
/**
 * Longest wait for an expected message: the deployment profile's streamMessageWaitMs (--stream-timeout),
 * 10 s by default. Only a failing (or slow) deployment makes the kit wait this long.
 */
export const streamWaitMs = (ctx: CheckContext) => ctx.deployment.streamMessageWaitMs;
/** How long the public feed is watched after the tenant's messages arrived. */
const PUBLIC_GRACE_MS = 150;
/** How long the kit keeps reading after the last message it expects (bounded: a stream never ends). */
export const READ_PAST_MS = 250;

export const streamPath = () => {
  const route = ROUTE_BY_ID.get('streamStatus');
  if (!route) throw new Error('the route table has no streamStatus');
  return route.path;
};

/** The message ids as numbers (NaN where an id is not a whole number). */
export const numericId = (e: SseEvent) => (e.id !== undefined && /^\d+$/.test(e.id) ? Number(e.id) : Number.NaN);
export const numbered = (events: readonly SseEvent[]) => events.filter((e) => e.id !== undefined && e.id !== '');

/**
 * Problems with the numbering of a message sequence: ids that are not numbers, repeats, gaps.
 * `after`: the id the sequence must continue from (a resumed stream), if any.
 */
export function numberingProblems(events: readonly SseEvent[], after?: number): string[] {
  const problems: string[] = [];
  let prev = after;
  for (const e of numbered(events)) {
    const id = numericId(e);
    if (Number.isNaN(id)) problems.push(`id ${JSON.stringify(e.id)} is not a number`);
    else if (prev !== undefined && id !== prev + 1)
      problems.push(
        id <= prev
          ? `id ${id} came again after ${prev}`
          : `after id ${prev} came ${id}: ${id - prev - 1} message(s) skipped`,
      );
    if (!Number.isNaN(id)) prev = id;
  }
  return problems;
}

export interface SseScenario {
  tenant: SseSession;
  public: SseSession;
  /** The kit's connections, in creation order. */
  created: { id: string; ex: Exchange }[];
  /** The tenant stream's messages, read live while the kit created the connections. */
  events: readonly SseEvent[];
  publicEvents: readonly SseEvent[];
  /** A second live reader of the tenant's stream, opened beside the first (at the alternate address where given). */
  twin?: { session: SseSession; events: readonly SseEvent[]; base: 'main' | 'alt' };
  /** The second tenant's stream, read while two connections of its own were created (`created`: the first's id). */
  other?: { tenant: string; session: SseSession; events: readonly SseEvent[]; created?: string };
}

/** The first message that mentions `id` (the creation's message carries the new connection's id). */
export const firstMention = (events: readonly SseEvent[], id: string) =>
  events.find((e) => e.data.includes(id)) ?? events.find((e) => namesValue(e.data, id));

/**
 * Opens the tenant's stream, a second reader of it and the public one (and the second tenant's, where the
 * target names one), creates KIT_EVENTS labelled connections (and two of the second tenant's) and reads until
 * every one of them has shown up. Once per run, shared by the sse.* checks.
 */
export function sseScenario(ctx: CheckContext): Promise<SseScenario> {
  return ctx.shared('sse-scenario', async () => {
    const tenant = await ctx.stream(streamPath(), { follow: true });
    const pub = await ctx.stream(streamPath(), { credentials: 'none', follow: true });
    // At the alternate address where there is one (the same feed, "the same interface"), else at the main one.
    const twinBase = ctx.target.altBaseUrl ? ('alt' as const) : ('main' as const);
    const twin = tenant.isStream ? await ctx.stream(streamPath(), { follow: true, base: twinBase }) : undefined;
    const otherTenant = ctx.target.otherTenant;
    const other = otherTenant ? await ctx.stream(streamPath(), { follow: true, tenant: otherTenant }) : undefined;
    const created: SseScenario['created'] = [];
    let otherCreated: string | undefined;
    if (tenant.isStream) {
      for (let i = 0; i < KIT_EVENTS; i++) {
        const c = await createLabelledConnection(ctx, 'stream');
        if (c.id) created.push({ id: c.id, ex: c.ex });
      }
      // Two of the second tenant's own, so its stream shows two messages in a row to number consecutively (a
      // tenant's view of a sequence shared with others leaves gaps between them).
      const theirs: string[] = [];
      if (otherTenant && other?.isStream)
        for (let i = 0; i < 2; i++) {
          const id = (await createLabelledConnection(ctx, 'stream', { tenant: otherTenant })).id;
          if (id) theirs.push(id);
        }
      otherCreated = theirs[0];
      const all = (events: readonly SseEvent[]) => created.every((c) => firstMention(events, c.id));
      await Promise.all([
        tenant.readUntil(all, streamWaitMs(ctx)),
        ...(twin?.isStream ? [twin.readUntil(all, streamWaitMs(ctx))] : []),
        ...(other?.isStream && theirs.length
          ? [other.readUntil((events) => theirs.every((id) => firstMention(events, id)), streamWaitMs(ctx))]
          : []),
      ]);
      // Read on past the last expected message: a repeat sent a little later must be seen too.
      await Promise.all([
        tenant.readUntil(() => false, READ_PAST_MS),
        pub.readUntil(() => false, PUBLIC_GRACE_MS),
        ...(twin?.isStream ? [twin.readUntil(() => false, READ_PAST_MS)] : []),
      ]);
    }
    await Promise.all([tenant.close(), pub.close(), twin?.close(), other?.close()]);
    return {
      tenant,
      public: pub,
      created,
      events: [...tenant.events],
      publicEvents: [...pub.events],
      ...(twin ? { twin: { session: twin, events: [...twin.events], base: twinBase } } : {}),
      ...(other && otherTenant
        ? {
            other: {
              tenant: otherTenant,
              session: other,
              events: [...other.events],
              ...(otherCreated ? { created: otherCreated } : {}),
            },
          }
        : {}),
    };
  });
}

/** The scenario with its stream open and its connections created, or the check ends saying why not. */
export async function requireScenario(ctx: CheckContext): Promise<SseScenario> {
  const s = await sseScenario(ctx);
  ctx.require(s.tenant.isStream, {
    expected: "GET /stream with the token opens the tenant's feed (200)",
    exchange: s.tenant.ex,
  });
  if (s.created.length < KIT_EVENTS)
    ctx.skip(`could not create ${KIT_EVENTS} connections to produce messages (see idempotency.*)`);
  return s;
}

/**
 * Resumes the tenant's stream after the kit's first message (by Last-Event-ID or cursor) and reads
 * until the last message seen live comes again; judges that it continues exactly after it.
 */
export async function checkResume(ctx: CheckContext, how: 'Last-Event-ID' | 'cursor') {
  const s = await requireScenario(ctx);
  const [created] = s.created;
  const first = created && firstMention(s.events, created.id);
  const after = first ? numericId(first) : Number.NaN;
  if (Number.isNaN(after))
    ctx.skip("the kit's first message did not arrive with a numeric id (see sse.consecutive-ids)");
  const later = numbered(s.events).filter((e) => numericId(e) > after);
  const lastId = Math.max(after, ...later.map(numericId));
  await judgeResume(ctx, how, after, lastId, later, 'main');
  // The same interface under the alternate address, and under the earlier version where it is served ("no change
  // that requires adaptation of clients"): their resumption is judged too, by either form.
  if (ctx.target.altBaseUrl) await judgeResume(ctx, how, after, lastId, later, 'alt');
  const [earlier] = await earlierVersionPlace(ctx);
  if (earlier) await judgeResume(ctx, how, after, lastId, later, 'main', earlier);
  // Both at once, naming the same message: what an EventSource reconnecting to a ?cursor= address sends.
  if (how === 'cursor') await judgeResume(ctx, 'both', after, lastId, later, 'main');
}

type Resume = 'Last-Event-ID' | 'cursor' | 'both';

const resumeOptions = (how: Resume, after: number): CallOptions => ({
  ...(how !== 'Last-Event-ID' ? { query: { cursor: String(after) } } : {}),
  ...(how !== 'cursor' ? { headers: { 'Last-Event-ID': String(after) } } : {}),
});

async function judgeResume(
  ctx: CheckContext,
  how: Resume,
  after: number,
  lastId: number,
  later: ReturnType<typeof numbered>,
  base: 'main' | 'alt',
  place?: Place,
) {
  const options = resumeOptions(how, after);
  const headers = { ...options.headers, ...place?.call.headers };
  const open = () => ctx.stream(streamPath(), { ...options, headers, base, follow: true });
  let session = await open();
  const sent = {
    cursor: `?cursor=${after}`,
    'Last-Event-ID': `Last-Event-ID: ${after}`,
    both: `?cursor=${after} and Last-Event-ID: ${after}`,
  };
  const rule = `GET /stream${base === 'alt' ? ' at the alternate base URL' : ''}${place ? ` ${place.what}` : ''} with ${sent[how]}`;
  if (how === 'both' && !session.isStream) {
    // The interface names either one; a deployment may refuse the two together. Only a stream it opens is judged.
    await session.close();
    ctx.note(`${rule} answered ${session.ex.status}: both together are not judged`);
    return;
  }
  ctx.require(session.isStream, { expected: `${rule} opens the stream (200)`, exchange: session.ex });
  const read = async () => {
    await session.readUntil((events) => events.some((e) => numericId(e) >= lastId), streamWaitMs(ctx));
    await session.readUntil(() => false, READ_PAST_MS);
    await session.close();
    return numbered(session.events);
  };
  const carried = (r: ReturnType<typeof numbered>) =>
    later.every((e) => r.some((x) => x.id === e.id && x.event === e.event && x.data === e.data));
  let resumed = await read();
  // A token that expired while the kit read (seconds-long lifetimes on a loaded machine) may open the public
  // stream instead, numbered on its own: read once more with a renewed token before judging.
  if (!carried(resumed) && (await ctx.renewToken())) {
    ctx.note(`${rule} missed messages; read again with a renewed token`);
    session = await open();
    if (session.isStream) resumed = await read();
  }
  const ids = resumed.map(numericId);
  ctx.expect.that(ids[0] === after + 1, {
    expected: `${rule} continues with message ${after + 1}`,
    observed: ids.length ? `it started with ${ids[0]}` : `no numbered message within ${streamWaitMs(ctx)} ms`,
    exchange: session.ex,
  });
  const problems = numberingProblems(resumed, ids[0] === after + 1 ? after : undefined);
  ctx.expect.that(problems.length === 0, {
    expected: `${rule}: no gap and no message twice`,
    observed: problems.slice(0, 5).join('; '),
    exchange: session.ex,
  });
  const missing = later.filter((e) => !resumed.some((r) => r.id === e.id && r.event === e.event && r.data === e.data));
  ctx.expect.that(missing.length === 0, {
    expected: `${rule} delivers again every message after ${after} that the live stream carried, unchanged`,
    observed: `missing or changed: ids ${missing.map((e) => e.id).join(', ')}`,
    exchange: session.ex,
  });
}
