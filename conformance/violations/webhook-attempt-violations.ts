// Violations of the webhooks' later answers and attempts: a registration replayed with another signing key, a
// delivery sent again signed with its t in milliseconds. The first registration and delivery stay right.
import { randomBytes } from 'node:crypto';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { signWebhook } from '../../simulator/index.ts';
import { editJson } from './json-edit.ts';
import type { Violation } from './types.ts';

/** Each (key, body) signed so far: a later signature of the same delivery is a retry or a redelivery. */
const signedBefore = new Set<string>();

export const WEBHOOK_ATTEMPT_VIOLATIONS: Violation[] = [
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
];
