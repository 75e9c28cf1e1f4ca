import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { type DrainTarget, type PlainResponse, type StreamSink, stopStream } from '../../simulator/index.ts';
import { defaultAccess } from './default-access.ts';
import { editJson } from './json-edit.ts';
import { sseIdOf } from './stream-edit.ts';
import type { Violation } from './types.ts';

const CONNECTIONS = `${BASE_PATH}/connections`;
/** How late a repeated stream message comes: after the kit has seen every message it waits for. */
const LATE_REPEAT_MS = 80;

/** Every numbered message written again a little later, while the stream is still open. */
function repeatLate(res: PlainResponse): PlainResponse {
  const source = res.stream;
  if (!source) return res;
  return {
    ...res,
    stream: {
      open(sink: StreamSink) {
        let open = true;
        const stop = source.open({
          write(chunk) {
            if (sseIdOf(chunk) !== undefined) setTimeout(() => open && sink.write(chunk), LATE_REPEAT_MS).unref?.();
            return sink.write(chunk);
          },
          end: () => {
            open = false;
            sink.end();
          },
          ...(sink.onDrain ? { onDrain: (target: DrainTarget) => sink.onDrain?.(target) } : {}),
        });
        return () => {
          open = false;
          stopStream(stop);
        };
      },
    },
  };
}

/** Violations only the response rules (every answer) or a longer read of the stream notice. */
export const RESPONSE_CATCH_VIOLATIONS: Violation[] = [
  {
    name: 'token-in-response-header',
    description: 'answers repeat the bearer token sent in a response header X-Debug-Authorization',
    section: 'Errors',
    catches: ['responses.no-leaks', 'errors.no-leaks'],
    async handle(req, next) {
      const res = await next(req);
      const auth = req.headers.authorization;
      return auth ? { ...res, headers: { ...res.headers, 'x-debug-authorization': auth } } : res;
    },
  },
  {
    name: 'meta-at-missing-on-creation',
    description: 'POST /connections answers leave meta.at out',
    section: 'Meta',
    catches: ['responses.meta-fields', 'envelope.response-schema-openapi'],
    async handle(req, next) {
      const res = await next(req);
      return req.method === 'POST' && req.path === CONNECTIONS ? editJson(res, (b) => void delete b.meta?.at) : res;
    },
  },
  {
    name: 'success-ok-missing-on-creation',
    description: 'POST /connections successes leave out ok: true',
    section: 'Success envelope (every JSON success response)',
    catches: ['responses.envelope', 'envelope.response-schema-openapi'],
    async handle(req, next) {
      const res = await next(req);
      return req.method === 'POST' && req.path === CONNECTIONS && res.status === 200
        ? editJson(res, (b) => void delete b.ok)
        : res;
    },
  },
  {
    name: 'sse-late-duplicate',
    description: `on a stream opened without a resume point, every numbered message is sent again ${LATE_REPEAT_MS} ms later (after the messages the kit waits for)`,
    section: 'Status stream',
    catches: ['sse.consecutive-ids', 'sse.every-reader'],
    async handle(req, next) {
      // Live streams only: a resumed stream replays its history in one burst, and whether a repeat
      // lands inside the kit's reading window would depend on timing.
      const resumed = req.headers['last-event-id'] !== undefined || req.query.cursor !== undefined;
      const res = await next(req);
      return resumed ? res : repeatLate(res);
    },
  },
  {
    name: 'capability-check-meta-at-local-time',
    description:
      "the capability check's answers state meta.at in the decision service's local time (UTC-5) labelled UTC: five hours behind every other answer's",
    section: 'Meta',
    catches: ['envelope.meta-at-together', 'envelope.meta-at-in-order'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== `${BASE_PATH}/capabilities`) return res;
      return editJson(res, (b) => {
        const meta = b.meta as { at?: unknown } | undefined;
        const at = typeof meta?.at === 'string' ? Date.parse(meta.at) : Number.NaN;
        if (meta && !Number.isNaN(at)) meta.at = new Date(at - 5 * 3_600_000).toISOString();
      });
    },
  },
  {
    name: 'other-tenant-listed-created-at-database-text',
    description:
      'for a tenant other than the first, GET /connections lists createdAt as a database writes timestamp text ("2026-07-01 10:00:00.123+00": a space for the T, an offset without minutes), no RFC 3339 date-time',
    section: 'Connection',
    catches: ['generated.contract-data'],
    async handle(req, next, core) {
      const res = await next(req);
      if (req.method !== 'GET' || req.path !== CONNECTIONS || res.status !== 200) return res;
      if (req.headers['x-service-tenant'] === (await defaultAccess(core)).tenant) return res;
      return editJson(res, (b) => {
        for (const c of (b.data as { connections?: { createdAt?: unknown }[] } | undefined)?.connections ?? [])
          if (typeof c.createdAt === 'string')
            c.createdAt = new Date(c.createdAt).toISOString().replace('T', ' ').replace('Z', '+00');
      });
    },
  },
];
