// Violations of the webhooks' later answers and attempts: a registration replayed with another signing key, a
// delivery sent again signed with its t in milliseconds, a log that lists every receiver's deliveries, a log that
// shows signatures never sent. The first
// registration and delivery stay right.
import { randomBytes } from 'node:crypto';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { signWebhook } from '../../simulator/index.ts';
import { editJson } from './json-edit.ts';
import type { Violation } from './types.ts';

const LOG = new RegExp(`^${BASE_PATH}/webhooks/([^/]+)/deliveries$`);

/** The receivers registered so far, per sandbox and tenant (per run). */
const receiversOf = new WeakMap<object, Map<string, Set<string>>>();

/** Each (key, body) signed so far: a later signature of the same delivery is a retry or a redelivery. */
const signedBefore = new Set<string>();

export const WEBHOOK_ATTEMPT_VIOLATIONS: Violation[] = [
  {
    name: 'delivery-log-signature-in-milliseconds',
    description:
      "the delivery log shows each attempt's signature with t in milliseconds (the log renders the attempt's timestamp, not the header sent): the deliveries themselves are signed in seconds",
    section: 'Webhooks',
    catches: ['webhooks.delivery-log'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || !LOG.test(req.path)) return res;
      const ms = (v: unknown) => (typeof v === 'string' ? v.replace(/^t=(\d+),/, (_, t: string) => `t=${t}417,`) : v);
      return editJson(res, (b) => {
        const data = b.data as { deliveries?: { attempts?: { signature?: unknown }[] }[] } | undefined;
        for (const d of data?.deliveries ?? []) for (const a of d.attempts ?? []) a.signature = ms(a.signature);
      });
    },
  },
  {
    name: 'webhook-replay-new-signing-key',
    description:
      'a registration repeated with its Idempotency-Key answers the same receiver with a newly minted signing key (the replay path re-runs key generation)',
    section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
    catches: ['webhooks.registration-replay'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== `${BASE_PATH}/webhooks` || res.status !== 200) return res;
      return editJson(res, (b) => {
        const data = b.data as { signingSecret?: unknown } | undefined;
        const replayed = (b.meta as { replayed?: unknown } | undefined)?.replayed === true;
        if (replayed && data && typeof data.signingSecret === 'string')
          data.signingSecret = `whsec_${randomBytes(24).toString('base64url')}`;
      });
    },
  },
  {
    name: 'redelivery-signed-in-milliseconds',
    description:
      'a delivery sent again (a redelivery) is signed with t in milliseconds (its retry worker stamps Date.now()), correctly signed over that t; first deliveries are right',
    section: 'Webhooks',
    // webhooks.redelivery judges the delivery it triggered; webhooks.signature every later one (MUST).
    catches: ['webhooks.signature', 'webhooks.redelivery'],
    webhooks: {
      sign(body, secret, t) {
        const sent = `${secret}\n${typeof body === 'string' ? body : Buffer.from(body).toString('utf8')}`;
        const again = signedBefore.has(sent);
        signedBefore.add(sent);
        return signWebhook(body, secret, again ? t * 1000 : t);
      },
    },
    handle: (req, next) => next(req),
  },
  {
    name: 'delivery-log-lists-every-receiver',
    description:
      "a receiver's delivery log lists the deliveries of every receiver of the tenant (the log's query filters by tenant, not by receiver)",
    section: 'Webhooks',
    catches: ['webhooks.delivery-log'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'] ?? '';
      const byTenant = receiversOf.get(core) ?? new Map<string, Set<string>>();
      receiversOf.set(core, byTenant);
      const mine = byTenant.get(tenant) ?? new Set<string>();
      byTenant.set(tenant, mine);
      if (req.method === 'POST' && req.path === `${BASE_PATH}/webhooks` && res.status === 200) {
        const id = (JSON.parse(res.body ?? '{}') as { data?: { id?: unknown } }).data?.id;
        if (typeof id === 'string') mine.add(id);
      }
      const own = LOG.exec(req.path)?.[1];
      if (req.method !== 'GET' || !own || res.status !== 200 || req.query.cursor !== undefined) return res;
      const others: unknown[] = [];
      for (const id of [...mine].filter((x) => x !== decodeURIComponent(own))) {
        const theirs = await next({ ...req, path: `${BASE_PATH}/webhooks/${encodeURIComponent(id)}/deliveries` });
        const list = (JSON.parse(theirs.body ?? '{}') as { data?: { deliveries?: unknown[] } }).data?.deliveries;
        if (theirs.status === 200 && list) others.push(...list);
      }
      return editJson(res, (b) => {
        const data = b.data as { deliveries?: unknown[]; count?: number } | undefined;
        if (!data?.deliveries) return;
        data.deliveries.push(...others);
        if (typeof data.count === 'number') data.count = data.deliveries.length;
      });
    },
  },
  {
    name: 'delivery-log-reports-earlier-version',
    description:
      "a receiver's delivery log answers with meta.version 2026-06-12 whatever version was asked for (its controller was written for the earlier version and stamps its own)",
    section: 'Versioning',
    catches: ['envelope.beyond-the-table'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || !LOG.test(req.path) || res.status !== 200) return res;
      return editJson(res, (b) => Object.assign(b.meta as object, { version: '2026-06-12' }));
    },
  },
];
