import { fetch as undiciFetch } from 'undici';
import { LIMITS } from '../../../simulator/contract/limits.ts';
import { WEBHOOK_DEFAULTS } from '../../../simulator/contract/simulator-defaults.ts';
import { BASE_PATH } from '../../../simulator/contract/versions.ts';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { PlainRequest } from '../../../simulator/index.ts';
import { must } from '../../runner/invariant.ts';
import { editJson } from '../json-edit.ts';
import { editStream, sseIdOf, withSseId } from '../stream-edit.ts';
import type { Mutant, MutationOperator } from './types.ts';

const isStream = (req: PlainRequest) => req.method === 'GET' && req.path === `${BASE_PATH}/stream`;
const resumed = (req: PlainRequest) => req.query.cursor !== undefined || req.headers['last-event-id'] !== undefined;
const bearerOf = (req: PlainRequest) => /^Bearer\s+(\S+)/i.exec(req.headers.authorization ?? '')?.[1];

/** A stream mutant: `perStream` edits the chunks of each stream opened by a request `when` selects. */
const streamEdit = (
  name: string,
  description: string,
  perStream: () => (chunk: string) => string[],
  when: (req: PlainRequest) => boolean = () => true,
): Mutant => ({
  operator: 'stream-ids',
  name,
  description,
  section: 'Status stream',
  async handle(req, next) {
    const res = await next(req);
    return isStream(req) && when(req) ? editStream(res, perStream) : res;
  },
});

/** The stream's numbering broken every way a client would notice: ids dropped, repeated, skipped, a resume that stalls. */
export const streamIds: MutationOperator = {
  name: 'stream-ids',
  description: 'stream message ids dropped, repeated or skipped; a resumed stream that never goes live',
  mutants: () => [
    streamEdit('stream ids dropped', 'messages carry no id: line', () => (c) => [c.replace(/^id: .*\n/m, '')]),
    streamEdit(
      'stream ids repeated',
      'every numbered message is sent twice',
      () => (c) => (sseIdOf(c) === undefined ? [c] : [c, c]),
    ),
    streamEdit('stream ids skipped', 'after the first message the numbering jumps by two', () => {
      let n = 0;
      return (c) => {
        const id = sseIdOf(c);
        return id === undefined ? [c] : [n++ === 0 ? c : withSseId(c, id + 1)];
      };
    }),
    streamEdit(
      'stream resume stalls',
      'a resumed stream delivers its backlog, then nothing new',
      () => {
        const opened = Date.now();
        return (c) => (Date.now() - opened < 30 ? [c] : []);
      },
      resumed,
    ),
    streamEdit(
      'stream resume skips one',
      'a resumed stream leaves out the first message after the one the client names',
      () => {
        let first = true;
        return (c) => {
          if (sseIdOf(c) === undefined || !first) return [c];
          first = false;
          return [];
        };
      },
      resumed,
    ),
  ],
};

const HEADER = WEBHOOK_DEFAULTS.signatureHeader.toLowerCase();

/** A dispatcher fetch that changes each delivery before it leaves (undici: deliveries go over real loopback HTTP). */
const deliveryFetch = (change: (headers: Headers, body: string) => string) =>
  (async (url: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const body = change(headers, typeof init?.body === 'string' ? init.body : '');
    return undiciFetch(String(url), { ...(init as object), headers, body } as never) as unknown as Response;
  }) as typeof fetch;

const webhookMutant = (name: string, description: string, webhooks: Mutant['webhooks']): Mutant => ({
  operator: 'signature',
  name,
  description,
  section: 'Webhooks',
  webhooks,
  handle: (req, next) => next(req),
});

/** Signatures the receiver must reject: over a changed body, upper-case hex, a time outside the window. */
export const signature: MutationOperator = {
  name: 'signature',
  description: 'a webhook signature over a changed body, in upper-case hex, or at a wrong time',
  mutants: () => [
    webhookMutant('signature over a changed body', 'the body is changed after signing', {
      fetch: deliveryFetch((_h, body) => body.replace(/}\s*$/, ',"changed":true}')),
    }),
    webhookMutant('signature upper-case hex', 'v1 is written in upper-case hex', {
      sign: (body, secret, t) =>
        signWebhook(body, secret, t).replace(/v1=([0-9a-f]+)/, (_m, hex: string) => `v1=${hex.toUpperCase()}`),
    }),
    webhookMutant('signature time in the future', `t is ${LIMITS.webhookToleranceSeconds + 100} s ahead`, {
      sign: (body, secret, t) => signWebhook(body, secret, t + LIMITS.webhookToleranceSeconds + 100),
    }),
    webhookMutant('signature time in the past', `t is ${LIMITS.webhookToleranceSeconds + 100} s behind`, {
      sign: (body, secret, t) => signWebhook(body, secret, t - LIMITS.webhookToleranceSeconds - 100),
    }),
  ],
};

/** Texts that give internals away, one per kind of sign (the kit's list is in conformance/rules/internal-details.ts). */
export const INTERNAL_SAMPLES: readonly string[] = [
  'at Object.createConnection (/srv/app/dist/handlers/connections.js:42:17)',
  'Traceback (most recent call last):\n  File "app.py", line 3',
  'org.postgresql.util.PSQLException: connection refused',
  'SQLSTATE[23505]: Unique violation',
  'duplicate key value violates unique constraint "connections_pkey"',
  'HikariPool-1 - Connection is not available, request timed out after 30000ms',
  'connect ECONNREFUSED 10.0.3.17:5432',
  'upstream ledger.svc.cluster.local:8443 unavailable',
  'postgres://ncs:hunter2@db.internal:5432/ncs',
];

/** The run's bearer token, last seen in a request: what a careless service would echo. */
function tokenCapture() {
  let token: string | undefined;
  return {
    see(req: PlainRequest) {
      token = bearerOf(req) ?? token;
    },
    get: () => token,
  };
}

/** Secrets of the run and internal details, each put into one channel: answer body, header, error, stream, delivery. */
export const leaks: MutationOperator = {
  name: 'leak',
  description: 'a secret of the run or an internal detail is put into a channel the kit observes',
  mutants: (): Mutant[] => {
    const out: Mutant[] = [];
    const leak = (name: string, description: string, m: Partial<Mutant>): Mutant => ({
      operator: 'leak',
      name,
      description,
      section: 'Errors',
      handle: (req, next) => next(req),
      ...m,
    });
    out.push(
      leak('token in a success body', 'a 200 answer repeats the bearer token in data', {
        async handle(req, next) {
          const res = await next(req);
          const t = bearerOf(req);
          return t && res.status === 200
            ? editJson(res, (b) => {
                if (b.data) b.data.debugAuth = t;
              })
            : res;
        },
      }),
      leak('token in a header', 'every authenticated answer carries the bearer token in a header', {
        async handle(req, next) {
          const res = await next(req);
          const t = bearerOf(req);
          return t ? { ...res, headers: { ...res.headers, 'x-debug-auth': t } } : res;
        },
      }),
      leak('token in an error', 'error answers quote the bearer token in error.detail', {
        async handle(req, next) {
          const res = await next(req);
          const t = bearerOf(req);
          return t && res.status >= 400
            ? editJson(res, (b) => {
                if (b.error) b.error.detail = `token ${t}`;
              })
            : res;
        },
      }),
      leak('token in a stream message', "the tenant's stream carries a message with the bearer token", {
        async handle(req, next) {
          const res = await next(req);
          const t = bearerOf(req);
          if (!isStream(req) || !t) return res;
          return editStream(
            res,
            () => (c) =>
              sseIdOf(c) === undefined ? [c] : [c.replace(/^data: (.*)$/m, `data: {"auth":"${t}","was":$1}`)],
          );
        },
      }),
    );
    for (const where of ['header', 'body'] as const) {
      const capture = tokenCapture();
      let secret: string | undefined;
      out.push(
        leak(`token in a delivery ${where}`, `webhook deliveries carry the bearer token in their ${where}`, {
          async handle(req, next) {
            capture.see(req);
            return next(req);
          },
          webhooks: {
            sign: (body, s, t) => {
              secret = s;
              return signWebhook(body, s, t);
            },
            fetch: deliveryFetch((h, body) => {
              const t = capture.get() ?? 'no-token-seen';
              if (where === 'header') {
                h.set('x-forwarded-authorization', `Bearer ${t}`);
                return body;
              }
              const changed = body.replace(/}\s*$/, `,"auth":"${t}"}`);
              // Signed again over the changed body: only the leak is wrong.
              const m = /t=(\d+)/.exec(h.get(HEADER) ?? '');
              if (secret && m) h.set(HEADER, signWebhook(changed, secret, Number(m[1])));
              return changed;
            }),
          },
        }),
      );
    }
    let signingKey: string | undefined;
    out.push(
      leak('signing key in a delivery', 'webhook deliveries carry their own signing key in a header', {
        webhooks: {
          sign: (body, s, t) => {
            signingKey = s;
            return signWebhook(body, s, t);
          },
          fetch: deliveryFetch((h, body) => {
            if (signingKey) h.set('x-signing-key', signingKey);
            return body;
          }),
        },
      }),
    );
    for (const sample of INTERNAL_SAMPLES) {
      const short = (sample.split(/[\s:(]/)[0] ?? '').slice(0, 24);
      out.push(
        leak(`internal in an error: ${short}`, `error answers say ${JSON.stringify(sample.slice(0, 40))}`, {
          async handle(req, next) {
            const res = await next(req);
            return res.status >= 400
              ? editJson(res, (b) => {
                  if (b.error) b.error.detail = sample;
                })
              : res;
          },
        }),
      );
    }
    out.push(
      leak('internal in a success body', 'capability decisions quote an internal host:port in their reason', {
        async handle(req, next) {
          const res = await next(req);
          return res.status === 200 && req.method === 'POST' && req.path === `${BASE_PATH}/capabilities`
            ? editJson(res, (b) => {
                const d = b.data?.decision as { reason?: string } | undefined;
                if (d) d.reason = `${d.reason} (via ${INTERNAL_SAMPLES[6]})`;
              })
            : res;
        },
      }),
      leak('internal in a delivery', 'webhook deliveries carry a data-store address in a header', {
        webhooks: {
          fetch: deliveryFetch(
            (h, body) => (h.set('x-upstream', must(INTERNAL_SAMPLES[8], 'INTERNAL_SAMPLES has a ninth sample')), body),
          ),
        },
      }),
    );
    return out;
  },
};

export const CHANNEL_OPERATORS = [streamIds, signature, leaks];
