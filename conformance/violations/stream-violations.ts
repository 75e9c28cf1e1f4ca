import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { PlainRequest } from '../../simulator/index.ts';
import { defaultAccess } from './default-access.ts';
import { failureOf, withHeader } from './json-edit.ts';
import { editStream, sseIdOf, withSseId } from './stream-edit.ts';
import type { Violation } from './types.ts';

const STREAM = `${BASE_PATH}/stream`;
const isStream = (req: PlainRequest) => req.method === 'GET' && req.path === STREAM;

/** The request without its cursor query parameter. */
function withoutCursor(req: PlainRequest): PlainRequest {
  const { cursor: _cursor, ...query } = req.query;
  return { ...req, query };
}

/** Whether the request's cursor parameter is one the interface accepts (integer >= 0). */
function cursorValid(req: PlainRequest): boolean {
  const cursor = req.query.cursor;
  return cursor === undefined || (typeof cursor === 'string' && /^\d{1,16}$/.test(cursor));
}

/** Violations of the status stream: numbering, resumption, cursor validation, the content type, tenant data. */
export const STREAM_VIOLATIONS: Violation[] = [
  {
    name: 'last-event-id-zero-refused',
    description:
      'GET /stream with Last-Event-ID: 0 answers 400 invalid_request (0 read as no number), while ?cursor=0 and every other number work',
    section: 'GET /api/public/v1/stream',
    catches: ['sse.content-type'],
    async handle(req, next) {
      return isStream(req) && req.headers['last-event-id']?.trim() === '0'
        ? failureOf('invalid_request', 'Last-Event-ID must name a message.')
        : next(req);
    },
  },
  {
    name: 'stream-content-type-wrong',
    description: 'the status stream is sent as text/plain instead of text/event-stream',
    section: 'GET /api/public/v1/stream',
    catches: ['sse.content-type', 'discovery.public-endpoints'],
    async handle(req, next) {
      const res = await next(req);
      return isStream(req) && res.stream
        ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' } }
        : res;
    },
  },
  {
    name: 'sse-duplicate-id',
    description: 'every numbered message of the stream is sent twice',
    section: 'Status stream',
    catches: [
      'sse.consecutive-ids',
      'sse.every-reader',
      'sse.resume-last-event-id',
      'sse.resume-cursor',
      'sse.resume-late',
      'sse.resume-at-edges',
      'versions.earlier-alike',
    ],
    async handle(req, next) {
      return editStream(await next(req), () => (chunk) => (sseIdOf(chunk) === undefined ? [chunk] : [chunk, chunk]));
    },
  },
  {
    name: 'sse-skipped-id',
    description: 'after the first message of a stream the numbering jumps by two (a number is skipped)',
    section: 'Status stream',
    catches: [
      'sse.consecutive-ids',
      'sse.resume-last-event-id',
      'sse.resume-cursor',
      'sse.resume-late',
      'sse.resume-at-edges',
    ],
    // The second tenant's stream skips only where it carries more than its one message (other checks' creations).
    mayCatch: ['sse.every-reader'],
    async handle(req, next) {
      return editStream(await next(req), () => {
        let numbered = 0;
        return (chunk) => {
          const id = sseIdOf(chunk);
          if (id === undefined) return [chunk];
          return [numbered++ === 0 ? chunk : withSseId(chunk, id + 1)];
        };
      });
    },
  },
  {
    name: 'resume-ignores-last-event-id',
    description: 'a stream resumed with Last-Event-ID starts over from the first retained message',
    section: 'Status stream',
    // A stream asked with both (sse.resume-cursor sends both once) reads Last-Event-ID too.
    catches: ['sse.every-reader', 'sse.resume-last-event-id', 'sse.resume-cursor', 'sse.resume-late'],
    handle(req, next) {
      return next(isStream(req) && req.headers['last-event-id'] ? withHeader(req, 'last-event-id', '0') : req);
    },
  },
  {
    name: 'cursor-ignored',
    description: 'a valid ?cursor= is ignored: the stream starts with live messages only',
    section: 'Status stream',
    catches: ['sse.every-reader', 'sse.resume-cursor'],
    // A stream resumed at the newest number and started live instead misses only what came in between.
    mayCatch: ['sse.resume-at-edges'],
    handle(req, next) {
      return next(isStream(req) && req.query.cursor !== undefined && cursorValid(req) ? withoutCursor(req) : req);
    },
  },
  {
    name: 'resume-with-both-starts-live',
    description:
      'a stream asked with both ?cursor= and Last-Event-ID (as an EventSource reconnecting to a cursor address sends) drops both and starts live',
    section: 'Status stream',
    catches: ['sse.resume-cursor'],
    async handle(req, next) {
      const both = isStream(req) && req.query.cursor !== undefined && req.headers['last-event-id'] !== undefined;
      if (!both) return next(req);
      const { 'last-event-id': _id, ...headers } = withoutCursor(req).headers;
      return next({ ...withoutCursor(req), headers });
    },
  },
  {
    name: 'malformed-cursor-accepted',
    description:
      'a cursor that is not an integer >= 0 is ignored and the stream opens (instead of 400 invalid_request)',
    section: 'Limits',
    catches: ['sse.malformed-cursor', 'limits.cursor'],
    handle(req, next) {
      return next(isStream(req) && req.query.cursor !== undefined && !cursorValid(req) ? withoutCursor(req) : req);
    },
  },
  {
    name: 'public-stream-leaks-tenant-events',
    description: "the stream read without credentials carries the default tenant's feed",
    section: 'GET /api/public/v1/stream',
    catches: ['sse.public-without-credentials'],
    async handle(req, next, core) {
      if (!isStream(req) || req.headers.authorization) return next(req);
      const access = await defaultAccess(core);
      return next(
        withHeader(withHeader(req, 'authorization', `Bearer ${access.token}`), 'x-service-tenant', access.tenant),
      );
    },
  },
];

/** Per simulator: which live reader a message went to first (a broker queue hands each message to one reader). */
const queueOwners = new WeakMap<object, Map<string, object>>();

/** Per simulator: the first tenant an authenticated call named. */
const firstTenants = new WeakMap<object, string>();

/** Violations of "arrives exactly once" to every reader, and of the numbering beyond the first tenant. */
export const READER_VIOLATIONS: Violation[] = [
  {
    name: 'live-readers-share-one-queue',
    description:
      "live readers of one tenant's stream (no resume position) are consumers of one broker queue: each message reaches only the reader that pulled it first",
    section: 'Status stream',
    catches: ['sse.every-reader'],
    // Another check's live reader still open when the scenario's messages come takes some of them first.
    mayCatch: ['sse.consecutive-ids'],
    async handle(req, next, core) {
      const res = await next(req);
      if (!isStream(req) || req.query.cursor !== undefined || req.headers['last-event-id'] !== undefined) return res;
      const owners = queueOwners.get(core) ?? new Map<string, object>();
      queueOwners.set(core, owners);
      const feed = req.headers.authorization ? (req.headers['x-service-tenant'] ?? '') : 'public';
      const me = {};
      return editStream(res, () => (chunk) => {
        const id = sseIdOf(chunk);
        if (id === undefined) return [chunk];
        const key = `${feed} ${id}`;
        if (!owners.has(key)) owners.set(key, me);
        return owners.get(key) === me ? [chunk] : [];
      });
    },
  },
  {
    name: 'other-tenant-stream-ids-prefixed',
    description:
      "the multi-tenant broker namespaces message ids with the tenant for every tenant but the first: the second tenant's stream sends id: <tenant>-<n>",
    section: 'Status stream',
    catches: ['sse.every-reader'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'];
      if (!req.headers.authorization || !tenant) return res;
      // The first tenant the broker served (the run's own: its first call) keeps plain numbers.
      if (!firstTenants.has(core)) firstTenants.set(core, tenant);
      if (!isStream(req) || tenant === firstTenants.get(core)) return res;
      return editStream(res, () => (chunk) => [chunk.replace(/^id: (\d+)$/m, `id: ${tenant}-$1`)]);
    },
  },
  {
    name: 'alt-last-event-id-zero-refused',
    description:
      'at the alternate address GET /stream with Last-Event-ID: 0 answers 400 (that gateway reads 0 as no number), while ?cursor=0 works there',
    section: 'GET /api/public/v1/stream',
    where: 'alt',
    catches: ['sse.content-type'],
    async handle(req, next) {
      return isStream(req) && req.headers['last-event-id']?.trim() === '0'
        ? failureOf('invalid_request', 'Last-Event-ID must name a message.')
        : next(req);
    },
  },
  {
    name: 'other-tenant-resume-skips-one',
    description:
      "for a tenant other than the first, a stream resumed by cursor or Last-Event-ID N starts after message N + 1 (that tenant's feed counts from 1 where the others count from 0)",
    section: 'Status stream',
    catches: ['sse.every-reader'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      const from = req.headers['last-event-id'] ?? req.query.cursor;
      if (!isStream(req) || !tenant || typeof from !== 'string' || !/^\d+$/.test(from)) return next(req);
      if (tenant === (await defaultAccess(core)).tenant) return next(req);
      const skipped = String(Number(from) + 1);
      const { cursor: _c, ...query } = req.query;
      return next({
        ...req,
        query: 'cursor' in req.query ? { ...query, cursor: skipped } : query,
        headers: { ...req.headers, ...(req.headers['last-event-id'] ? { 'last-event-id': skipped } : {}) },
      });
    },
  },
  {
    name: 'other-tenant-stream-ids-from-shared-sequence',
    description:
      "for a tenant other than the first, the stream's numbers come from a sequence shared with two hidden feeds: that tenant reads 3, 6, 9 ... (resuming maps a number back, so only the gaps between two messages show)",
    section: 'Status stream',
    catches: ['sse.every-reader'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      if (!isStream(req) || !req.headers.authorization || !tenant || tenant === (await defaultAccess(core)).tenant)
        return next(req);
      const back = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? String(Math.floor(Number(v) / 3)) : v);
      const last = req.headers['last-event-id'];
      const res = await next({
        ...req,
        query: 'cursor' in req.query ? { ...req.query, cursor: back(req.query.cursor) as string } : req.query,
        headers: { ...req.headers, ...(last !== undefined ? { 'last-event-id': back(last) as string } : {}) },
      });
      return editStream(res, () => (chunk) => {
        const id = sseIdOf(chunk);
        return [id === undefined ? chunk : withSseId(chunk, id * 3)];
      });
    },
  },
];
