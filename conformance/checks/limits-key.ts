// The Idempotency-Key's Limits row: its lengths, its characters wherever they stand, an empty key, on both
// "yes + key" endpoints.
import { randomBytes } from 'node:crypto';
import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { LIMITS } from '../../simulator/contract/limits.ts';
import { inBatches } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { judgeBoundary, lengthBoundaries } from './support/boundaries.ts';
import { postConnection, requireCreationBase } from './support/connections.ts';
import { earlierVersionPlace } from './support/places.ts';
import { testEvent } from './support/webhook-events.ts';
import { removeAtRunEnd, webhooksPath } from './support/webhook-scenario.ts';

const KEY = LIMITS.idempotencyKey;

/** A unique key of exactly `length` characters: a label padded or cut (8 characters: random). */
function keyOfLength(ctx: CheckContext, length: number): string {
  if (length <= 8) return randomBytes(4).toString('hex').slice(0, length);
  return `${ctx.label('key')}-${'k'.repeat(length)}`.slice(0, length);
}

export const idempotencyKeyPattern = defineCheck({
  name: 'limits.idempotency-key',
  title: `Idempotency-Key: ${KEY.min}..${KEY.max} characters of ${KEY.pattern} pass; one shorter or longer, or another character, answers 400; an empty one 400 or 428`,
  severity: 'MUST',
  section: 'Limits',
  tags: ['limits', 'validation', 'idempotency'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    const bad = [
      ...[' ', '/', '+', '@', '!'].map((c) => ({
        key: `ncs${c}conformance${c}${ctx.runId}`,
        inside: false,
        what: `a key containing ${JSON.stringify(c)}`,
      })),
      // A percent escape of a letter: a server decoding the header as a URL part would take "ncsAconformance".
      { key: `ncs%41conformance-${ctx.runId}`, inside: false, what: 'a key containing "%41" (percent-encoded "A")' },
    ];
    const cases = [
      ...lengthBoundaries(KEY).map(({ length, inside }) => ({
        key: keyOfLength(ctx, length),
        inside,
        what: `a key of ${length} characters`,
      })),
      ...bad,
      // The allowed punctuation anywhere, not only inside a word: a leading dot or hyphen, a double dot (a
      // path-traversal guard's favourite), a key of punctuation alone; the pattern takes each.
      ...[
        `.${randomBytes(6).toString('hex')}`,
        `-${randomBytes(6).toString('hex')}`,
        `${randomBytes(4).toString('hex')}..${randomBytes(4).toString('hex')}`,
        `:${randomBytes(4).toString('hex')}:`,
        [...randomBytes(24)].map((b) => '._:-'[b % 4]).join(''),
        // Digits alone (an order number as the key): still a text, echoed as one (meta.idempotencyKey: string).
        [...randomBytes(12)].map((b) => String(b % 10)).join(''),
      ].map((key) => ({ key, inside: true, what: `the key ${JSON.stringify(key)}` })),
    ];
    await inBatches(cases, 4, async (c) => {
      const ex = await postConnection(ctx, { ...base, scopeLabel: ctx.label('key-limits') }, { key: c.key });
      judgeBoundary(ctx, ex, c.inside, `POST /connections with ${c.what} (pattern ${KEY.pattern})`);
    });
    // An empty header is a key of no characters (400) or no key at all (428): either way not a creation.
    const empty = await postConnection(ctx, { ...base, scopeLabel: ctx.label('key-limits') }, { key: '' });
    const code = (empty.json as { error?: { code?: unknown } } | undefined)?.error?.code;
    const refused = (['invalid_request', 'idempotency_required'] as const).some(
      (c) => code === c && empty.status === ERROR_TABLE[c].status,
    );
    ctx.expect.that(refused, {
      expected: `POST /connections with an empty Idempotency-Key header (pattern ${KEY.pattern}) answers 400 invalid_request or 428 idempotency_required`,
      observed: `${empty.status}${typeof code === 'string' ? ` ${code}` : ''}`,
      exchange: empty,
    });
    // The pattern is the key's, on every call that needs one: the other "yes + key" endpoint refuses the
    // keys outside it too (only refusals are sent there, so no receiver is registered unless one is wrongly accepted).
    const outside = [cases.find((c) => !c.inside && c.what.includes('characters')), bad[0]];
    for (const c of outside) {
      if (!c) continue;
      const hook = await ctx.call('POST', webhooksPath(), {
        json: { url: `http://127.0.0.1:9/${ctx.label('key-limits')}`, events: [(await testEvent(ctx)).name] },
        headers: { 'Idempotency-Key': c.key },
      });
      judgeBoundary(ctx, hook, false, `POST /webhooks with ${c.what} (pattern ${KEY.pattern})`);
    }
    await longestKeyOnWebhooks(ctx);
    // The pattern's bounds hold at the alternate address too (a gateway there with a header length cap of its
    // own refuses the longest keys): the shortest and longest keys taken, one shorter and one longer refused.
    if (ctx.target.altBaseUrl)
      await inBatches(lengthBoundaries(KEY), 4, async ({ length, inside }) => {
        const ex = await postConnection(
          ctx,
          { ...base, scopeLabel: ctx.label('key-limits') },
          { key: keyOfLength(ctx, length), base: 'alt' },
        );
        judgeBoundary(
          ctx,
          ex,
          inside,
          `POST /connections at the alternate base URL with a key of ${length} characters (pattern ${KEY.pattern})`,
        );
      });
    // And for a caller of the earlier version, where it is served: a key outside the pattern is refused there
    // too (an old path that repairs the key instead). Fresh keys: one the run sent before may be on record.
    for (const place of await earlierVersionPlace(ctx))
      for (const c of [
        { key: keyOfLength(ctx, KEY.min - 1), what: `a key of ${KEY.min - 1} characters` },
        { key: `ncs conformance ${ctx.label('key')}`, what: 'a key containing " "' },
      ]) {
        const ex = await postConnection(
          ctx,
          { ...base, scopeLabel: ctx.label('key-limits') },
          { key: c.key, headers: place.call.headers ?? {} },
        );
        judgeBoundary(ctx, ex, false, `POST /connections ${place.what} with ${c.what} (pattern ${KEY.pattern})`);
      }
  },
});

/**
 * The longest key the pattern allows registers a receiver too. Refused (400), the same registration with a
 * short key tells whether the key was the reason (accepted) or the receiver itself (refused too: a
 * deployment may refuse an address it cannot reach; not judged). Receivers made are removed at the run's end.
 */
async function longestKeyOnWebhooks(ctx: CheckContext) {
  const register = async (key: string) => {
    const ex = await ctx.call('POST', webhooksPath(), {
      json: { url: `http://127.0.0.1:9/${ctx.label('key-limits')}`, events: [(await testEvent(ctx)).name] },
      headers: { 'Idempotency-Key': key },
    });
    const id = (ex.json as { data?: { id?: unknown } } | undefined)?.data?.id;
    if (ex.status >= 200 && ex.status < 300 && (typeof id === 'string' || typeof id === 'number'))
      removeAtRunEnd(ctx, String(id));
    return ex;
  };
  const longest = await register(keyOfLength(ctx, KEY.max));
  if (longest.status !== ERROR_TABLE.invalid_request.status) {
    judgeBoundary(ctx, longest, true, `POST /webhooks with a key of ${KEY.max} characters (pattern ${KEY.pattern})`);
    return;
  }
  const short = await register(keyOfLength(ctx, 24));
  if (short.status === ERROR_TABLE.invalid_request.status)
    return void ctx.note(
      `POST /webhooks to http://127.0.0.1:9/… was refused 400 with a key of ${KEY.max} characters and one of 24: the receiver, not the key, is refused (not judged)`,
    );
  ctx.expect.that(false, {
    expected: `POST /webhooks with a key of ${KEY.max} characters (pattern ${KEY.pattern}) is taken as the same registration with a 24-character key is`,
    observed: `400 with the ${KEY.max}-character key, ${short.status} with the 24-character key`,
    exchange: longest,
  });
}
