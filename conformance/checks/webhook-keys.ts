import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { dataIdOf, freshKey, postConnection, requireCreationBase } from './support/connections.ts';
import { receiverIdOf } from './support/one-list.ts';
import { keyAtPath, signingKeyOf } from './support/signing-key.ts';
import { testEvent } from './support/webhook-events.ts';
import {
  issuedSigningKeys,
  kitReceiver,
  receiverBaseUrl,
  removeAtRunEnd,
  signingKeyPath,
  webhooksPath,
} from './support/webhook-scenario.ts';

// POST /webhooks is a modifying call "yes + key": its Idempotency-Key follows the Errors table ("same
// idempotency key with different content": idempotency_conflict), and each registration's signing key is
// "issued exactly once in the response".

type Answer = { data?: Record<string, unknown>; meta?: { replayed?: unknown } } | undefined;
const errorCode = (ex: Exchange) => (ex.json as { error?: { code?: unknown } } | undefined)?.error?.code;

/** A registration of a new receiver URL of the kit's (or `at`), its receiver removed when the run ends. */
async function register(ctx: CheckContext, name: string, key: string, base?: 'alt', tenant?: string, at?: string) {
  const receiver = await kitReceiver(ctx);
  const url = at ?? `${receiverBaseUrl(ctx, receiver)}/${ctx.label(name)}`;
  const ex = await ctx.call('POST', webhooksPath(), {
    json: { url, events: [(await testEvent(ctx)).name] },
    headers: { 'Idempotency-Key': key },
    ...(base ? { base } : {}),
    ...(tenant ? { tenant } : {}),
  });
  const data = (ex.json as Answer)?.data;
  const id = ex.status === 200 ? receiverIdOf(data, url) : undefined;
  if (id) removeAtRunEnd(ctx, id, tenant);
  if (ex.status !== 200) return { ex, url, secret: undefined };
  const signing = signingKeyOf(data, ctx.deployment.webhookSecretField, ctx.declared('webhookSecretField'));
  if (signing.found || signing.declared) return { ex, url, secret: signing.found ? signing.secret : undefined };
  // Under a name the kit does not recognise: at the place the scenario's key verified its delivery.
  const path = await signingKeyPath(ctx);
  return { ex, url, secret: path === undefined ? undefined : keyAtPath(data, ex.headers, path) };
}

export const registrationKeys = defineCheck({
  name: 'webhooks.registration-keys',
  title:
    'POST /webhooks: one Idempotency-Key with another url answers 409 idempotency_conflict, a key of a connection creation never replays that creation, and two registrations never show the same signing key (a URL with a trailing slash added included)',
  severity: 'MUST',
  section: 'Errors',
  tags: ['webhooks', 'idempotency'],
  mutating: true,
  requires: ['token'],
  async run(ctx) {
    const key = freshKey(ctx);
    const first = await register(ctx, 'keys-receiver', key);
    if (first.ex.status !== 200)
      ctx.skip(`the registration answered ${first.ex.status}: webhooks.registration judges it`);
    // The same key, another url: other content under one key.
    const other = await register(ctx, 'keys-other-receiver', key);
    // Sent under another token (a short-lived one renewed between the two): whether keys are kept per access is
    // not shown, so the second is not judged as the same key's.
    const tokenOf = (ex: Exchange) => ex.requestHeaders.authorization ?? ex.requestHeaders.Authorization;
    const sameAccess = tokenOf(first.ex) === tokenOf(other.ex);
    if (!sameAccess) ctx.note('the second registration went out under a renewed token: its key not compared');
    ctx.expect.that(!sameAccess || (other.ex.status === 409 && errorCode(other.ex) === 'idempotency_conflict'), {
      expected: `POST ${webhooksPath()} with the key of an earlier registration and another url answers 409 idempotency_conflict ("same idempotency key with different content")`,
      observed: `${other.ex.status} ${String(errorCode(other.ex) ?? '')}`.trim(),
      exchange: other.ex,
    });
    // The key of a connection creation, sent with a registration: another operation. Whether keys are kept
    // per route is not shown: a new registration or idempotency_conflict are both answers; the creation's
    // answer replayed for it is neither.
    const base = await requireCreationBase(ctx);
    const creationKey = freshKey(ctx);
    const created = await postConnection(
      ctx,
      { ...base, scopeLabel: ctx.label('keys-creation') },
      { key: creationKey },
    );
    const connectionId = dataIdOf(created);
    let third = other.ex.status === 200 ? other : undefined;
    if (connectionId) {
      const crossed = await register(ctx, 'keys-crossed-receiver', creationKey);
      const a = crossed.ex.json as Answer;
      ctx.expect.that(a?.meta?.replayed !== true && a?.data?.id !== connectionId, {
        expected: `POST ${webhooksPath()} with the Idempotency-Key of a connection creation answers 409 idempotency_conflict or registers a receiver: it never replays the creation`,
        observed: `${crossed.ex.status}, meta.replayed ${JSON.stringify(a?.meta?.replayed)}, data.id ${JSON.stringify(a?.data?.id)}`,
        exchange: crossed.ex,
      });
      if (crossed.ex.status === 200 && a?.meta?.replayed !== true) third ??= crossed;
    } else ctx.note(`the creation to take a key from answered ${created.status}: that part not judged`);
    third ??= await register(ctx, 'keys-second-receiver', freshKey(ctx));
    if (!first.secret || !third.secret || third.ex.status !== 200) {
      ctx.note('a second registration showed no signing key beside the first: nothing to compare');
      return;
    }
    ctx.expect.that(first.secret !== third.secret, {
      expected:
        'two registrations of the tenant show two different signing keys ("issued exactly once in the response")',
      observed: 'the second registration shows the signing key the first one was issued',
      exchange: third.ex,
    });
    // A receiver URL that differs from the first only by a trailing slash is another registration: a deployment
    // that normalises URLs may refuse it (409) or take it, but a key it shows is its own, never the first's again.
    const slashed = await register(ctx, '', freshKey(ctx), undefined, undefined, `${first.url}/`);
    if (slashed.ex.status === 200 && slashed.secret)
      ctx.expect.that(slashed.secret !== first.secret, {
        expected: `POST ${webhooksPath()} for ${first.url}/ (the first receiver's URL with a trailing slash) shows a signing key of its own, if any ("issued exactly once in the response")`,
        observed: "it shows the key the first receiver's registration was issued",
        exchange: slashed.ex,
      });
    // The second tenant's receiver has a key of its own too: none the first tenant's registrations were issued
    // (a key looked up by the token's default tenant hands one tenant another's key).
    const second = ctx.target.otherTenant;
    if (!second) return;
    const theirs = await register(ctx, 'keys-tenant-receiver', freshKey(ctx), undefined, second);
    if (theirs.ex.status !== 200 || !theirs.secret) return;
    const mine = issuedSigningKeys(ctx, await signingKeyPath(ctx), ctx.target.tenant);
    ctx.expect.that(!mine.has(theirs.secret), {
      expected: `the registration of tenant ${second} shows a signing key of its own, none of tenant ${ctx.target.tenant}'s receivers`,
      observed: `it shows a key tenant ${ctx.target.tenant}'s registrations were issued`,
      exchange: theirs.ex,
    });
  },
});

/** MUST (POST /webhooks: "url (string, the receiver address), events (array of event-name strings)"; Errors: wrong data type). */
export const registrationBody = defineCheck({
  name: 'webhooks.registration-body',
  title: 'POST /webhooks with events as a string instead of a list, or url as a number, answers 400 invalid_request',
  severity: 'MUST',
  section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
  tags: ['webhooks', 'validation'],
  mutating: true,
  requires: ['token'],
  async run(ctx) {
    const receiver = await kitReceiver(ctx);
    const url = `${receiverBaseUrl(ctx, receiver)}/${ctx.label('typed-receiver')}`;
    const event = (await testEvent(ctx)).name;
    for (const [what, json] of [
      ['events as a string', { url, events: event }],
      ['url as a number', { url: 8080, events: [event] }],
    ] as const) {
      const ex = await ctx.call('POST', webhooksPath(), { json, headers: { 'Idempotency-Key': freshKey(ctx) } });
      // Accepted all the same, it registered a receiver of the kit's: removed at the run's end.
      const id = ex.status === 200 ? receiverIdOf((ex.json as Answer)?.data, url) : undefined;
      if (id) removeAtRunEnd(ctx, id);
      ctx.expect.errorCode(
        ex,
        'invalid_request',
        `POST ${webhooksPath()} with ${what} answers 400 invalid_request (a wrong data type)`,
      );
    }
  },
});

/** MUST ("The same interface is also offered under a second main-domain address"; "The signing key is issued exactly once in the response"). */
export const altRegistration = defineCheck({
  name: 'webhooks.alt-registration',
  title:
    'POST /webhooks at the alternate base URL registers a receiver as at the main one: 200, and the answer issues its signing key',
  severity: 'MUST',
  section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
  tags: ['webhooks', 'base-urls'],
  mutating: true,
  requires: ['token', 'alt-base-url'],
  async run(ctx: CheckContext) {
    const main = await register(ctx, 'main-address-receiver', freshKey(ctx));
    if (main.ex.status !== 200 || !main.secret)
      ctx.skip(
        `at the main address the registration answered ${main.ex.status}${main.secret ? '' : ' and the kit found no signing key in it'}: webhooks.registration and webhooks.secret-once judge that`,
      );
    const alt = await register(ctx, 'alt-address-receiver', freshKey(ctx), 'alt');
    ctx.require(alt.ex.status === 200, {
      expected: `POST ${webhooksPath()} at the alternate base URL answers 200, as at the main one`,
      exchange: alt.ex,
    });
    ctx.expect.that(alt.secret !== undefined, {
      expected:
        'the registration at the alternate base URL issues the signing key where the main address issues it ("issued exactly once in the response")',
      observed: 'no signing key in the answer',
      exchange: alt.ex,
    });
  },
});

export const webhookKeyChecks = [registrationKeys, registrationBody, altRegistration];
