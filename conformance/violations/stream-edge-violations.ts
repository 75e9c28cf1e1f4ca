import { BASE_PATH, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import type { Core, PlainRequest } from '../../simulator/index.ts';
import { failureOf } from './json-edit.ts';
import { editStream, sseIdOf, withSseId } from './stream-edit.ts';
import type { Violation } from './types.ts';

const STREAM = `${BASE_PATH}/stream`;
const isStream = (req: PlainRequest) => req.method === 'GET' && req.path === STREAM;
/** The feed a stream reads: the tenant's with a token, else the public one. */
const feedOf = (req: PlainRequest) =>
  req.headers.authorization ? `t:${req.headers['x-service-tenant'] ?? ''}` : 'public';
/** The position a stream resumes from (Last-Event-ID first, as the simulator reads it), if any. */
function positionOf(req: PlainRequest): number | undefined {
  const raw = req.headers['last-event-id']?.trim() || req.query.cursor;
  return typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}
const connectionOf = (chunk: string) => /"id":"(con_[^"]+)"/.exec(chunk)?.[1];

/** Per simulator and feed: every numbered message some stream carried, by number (what the violation "retained"). */
const seenBy = new WeakMap<Core, Map<string, Map<number, string>>>();
function seen(core: Core, req: PlainRequest): Map<number, string> {
  const feeds = seenBy.get(core) ?? new Map<string, Map<number, string>>();
  seenBy.set(core, feeds);
  const feed = feeds.get(feedOf(req)) ?? new Map<number, string>();
  feeds.set(feedOf(req), feed);
  return feed;
}
const newestOf = (feed: Map<number, string>) => (feed.size ? Math.max(...feed.keys()) : undefined);
/** Notes every numbered message a stream writes. */
const noting = (feed: Map<number, string>) => (chunk: string) => {
  const id = sseIdOf(chunk);
  if (id !== undefined && !feed.has(id)) feed.set(id, chunk);
  return [chunk];
};

/** The earlier published version. */
const EARLIER = SUPPORTED_VERSIONS[1];
/** Per simulator: connections created under the earlier version. */
const earlierCreated = new WeakMap<Core, Set<string>>();

/** Violations of the stream at its edges: resumed at the newest number, with both positions, twice. */
export const STREAM_EDGE_VIOLATIONS: Violation[] = [
  {
    name: 'resume-at-newest-resends-newest',
    description:
      'a stream resumed at the newest number sent (the backlog read with id >= cursor) sends that message again first, renumbered one on, and every later message one on too',
    section: 'Status stream',
    catches: ['sse.resume-at-edges'],
    async handle(req, next, core) {
      const res = await next(req);
      if (!isStream(req)) return res;
      const feed = seen(core, req);
      const at = positionOf(req);
      const newest = newestOf(feed);
      // At the newest number the feed sent, or one short of it (a state change on its way while the
      // reader resumed): the bug shows wherever the backlog holds the cursor's row.
      const again = at !== undefined && newest !== undefined && at >= newest - 1 ? feed.get(at) : undefined;
      if (at === undefined || again === undefined) return editStream(res, () => noting(feed));
      return editStream(res, () => {
        let first = true;
        return (chunk) => {
          const id = sseIdOf(chunk);
          const out = id === undefined ? [chunk] : [withSseId(chunk, id + 1)];
          if (first && id !== undefined) {
            first = false;
            return [withSseId(again, at + 1), ...out];
          }
          return out;
        };
      });
    },
  },
  {
    name: 'both-resume-positions-refused',
    description:
      'GET /stream with both ?cursor= and Last-Event-ID answers 400 invalid_request (the parameter schema makes them mutually exclusive)',
    section: 'GET /api/public/v1/stream',
    catches: ['sse.resume-both-positions'],
    async handle(req, next) {
      return isStream(req) && req.query.cursor !== undefined && req.headers['last-event-id'] !== undefined
        ? failureOf('invalid_request', 'Send either cursor or Last-Event-ID, not both.')
        : next(req);
    },
  },
  {
    name: 'resumed-backlog-keeps-latest-per-connection',
    description:
      'a resumed backlog keeps only the newest message about each connection among those already sent (a DISTINCT ON (connection) catch-up query): older ones are left out',
    section: 'Status stream',
    catches: ['sse.resume-late'],
    async handle(req, next, core) {
      const res = await next(req);
      if (!isStream(req)) return res;
      const feed = seen(core, req);
      const at = positionOf(req);
      if (at === undefined) return editStream(res, () => noting(feed));
      const newestAbout = new Map<string, number>();
      for (const [id, chunk] of feed) {
        const con = connectionOf(chunk);
        if (con && id > at && id > (newestAbout.get(con) ?? -1)) newestAbout.set(con, id);
      }
      return editStream(res, () => (chunk) => {
        const id = sseIdOf(chunk);
        if (id === undefined) return [chunk];
        const con = connectionOf(chunk);
        const newest = con ? newestAbout.get(con) : undefined;
        if (feed.has(id) && newest !== undefined && id < newest) return [];
        noting(feed)(chunk);
        return [chunk];
      });
    },
  },
  {
    name: 'earlier-version-creation-announced-twice',
    description:
      'a connection created under 2026-06-12 is announced twice on the stream (the old handler and the outbox relay both publish connection.created), each numbered',
    section: 'Status stream',
    catches: ['sse.resume-late'],
    // Where another check's creation under the earlier version comes before the edge scenario's readers open.
    mayCatch: ['sse.resume-at-edges'],
    async handle(req, next, core) {
      const res = await next(req);
      const ids = earlierCreated.get(core) ?? new Set<string>();
      earlierCreated.set(core, ids);
      if (req.method === 'POST' && req.path === `${BASE_PATH}/connections` && res.status === 200) {
        if (req.headers['service-version'] === EARLIER) {
          const id = connectionOf(res.body ?? '');
          if (id) ids.add(id);
        }
        return res;
      }
      if (!isStream(req)) return res;
      return editStream(res, () => {
        let by = 0;
        return (chunk) => {
          const id = sseIdOf(chunk);
          if (id === undefined) return [chunk];
          const out = [withSseId(chunk, id + by)];
          const con = connectionOf(chunk);
          if (con && ids.has(con) && /^event: connection\.created$/m.test(chunk)) {
            by++;
            out.push(withSseId(chunk, id + by));
          }
          return out;
        };
      });
    },
  },
];
