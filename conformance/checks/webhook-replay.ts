import { isDeepStrictEqual } from 'node:util';
import { defineCheck } from '../runner/check.ts';
import { jsonDiff } from '../runner/json-diff.ts';
import { freshKey } from './support/connections.ts';
import { knownSigningKeys } from './support/known-signing-keys.ts';
import { receiverIdOf } from './support/one-list.ts';
import { earlierVersionPlace } from './support/places.ts';
import { keyAtPath, secretPaths, signingKeyOf, withoutPath } from './support/signing-key.ts';
import { testEvent } from './support/webhook-events.ts';
import {
  kitReceiver,
  receiverBaseUrl,
  removeAtRunEnd,
  signingKeyPath,
  webhooksPath,
} from './support/webhook-scenario.ts';

type Json = Record<string, unknown>;
/** A key is one token of 16 characters or more: a notice beside it ("shown once, store it") is text. */
const keyLike = (v: string | undefined): v is string => !!v && v.length >= 16 && !/[\s*•…]|\.\.\./.test(v);
const objectAt = (data: unknown, parts: string[]): Json | undefined => {
  let node = data;
  for (const k of parts)
    node = node && typeof node === 'object' && !Array.isArray(node) ? (node as Json)[k] : undefined;
  return node && typeof node === 'object' && !Array.isArray(node) ? (node as Json) : undefined;
};

/**
 * The dotted paths of fields the replay adds beside a signing key it does not repeat (withheld or masked):
 * in the object that held the key in the first answer, the names the first answer did not have.
 * @example withheldNotes({ signing: { key: 'k', alg: 'x' } }, { signing: { alg: 'x', keyShown: 'once' } }, ['signing.key']) // ['signing.keyShown']
 */
export function withheldNotes(first: unknown, replay: unknown, keyPaths: readonly (string | undefined)[]): string[] {
  const out: string[] = [];
  for (const path of keyPaths) {
    if (!path || path.startsWith('(')) continue; // a header, not a field
    const parts = path.split('.');
    const leaf = parts.at(-1) ?? '';
    const [was, now] = [objectAt(first, parts.slice(0, -1)), objectAt(replay, parts.slice(0, -1))];
    if (!was || !now || isDeepStrictEqual(was[leaf], now[leaf])) continue; // the key repeated: nothing withheld
    for (const name of Object.keys(now)) if (!(name in was)) out.push([...parts.slice(0, -1), name].join('.'));
  }
  return out;
}

type Answer = { data?: Record<string, unknown>; meta?: { replayed?: unknown; idempotencyKey?: unknown } } | undefined;

/** MUST (What the service does: modifying calls are repeat-safe; POST /webhooks takes an Idempotency-Key). */
export const registrationReplay = defineCheck({
  name: 'webhooks.registration-replay',
  title:
    'POST /webhooks sent twice with one Idempotency-Key and one body answers the same again, with meta.replayed true',
  severity: 'MUST',
  section: 'What the service does',
  tags: ['webhooks', 'idempotency'],
  mutating: true,
  requires: ['token'],
  async run(ctx) {
    const receiver = await kitReceiver(ctx);
    const label = ctx.label('replay-receiver');
    const url = `${receiverBaseUrl(ctx, receiver)}/${label}`;
    const key = freshKey(ctx);
    const event = await testEvent(ctx);
    const send = (base: 'main' | 'alt' = 'main', headers: Record<string, string> = {}) =>
      ctx.call('POST', webhooksPath(), {
        json: { url, events: [event.name] },
        headers: { ...headers, 'Idempotency-Key': key },
        base,
      });
    const first = await send();
    if (first.status !== 200)
      ctx.skip(
        event.declared
          ? `the first registration answered ${first.status}: webhooks.registration judges it`
          : `the first registration answered ${first.status} to the event ${event.name} (from ${event.source}; declare webhookTestEvent in the deployment profile: the interface does not list event names)`,
      );
    const a = first.json as Answer;
    const id = receiverIdOf(a?.data, url);
    if (id) removeAtRunEnd(ctx, id);
    const again = await send();
    const b = again.json as Answer;
    // The signing key is shown exactly once: a replay may leave it out, everything else must repeat.
    const signing = signingKeyOf(a?.data, ctx.deployment.webhookSecretField, ctx.declared('webhookSecretField'));
    // Wherever the key is (found by name, declared, or known to the run as a secret it was shown).
    const paths = [signing.path, ...secretPaths(a?.data, ctx.secrets())];
    const strip = (d: Record<string, unknown> | undefined, more: string[] = []) =>
      [...paths, ...more].reduce((acc, p) => withoutPath(acc, p), { ...d });
    // A replay holding the key back may say so beside it (`keyShown: "only in the first answer"`,
    // `signingKeyRedacted: true`): fields only the replay has, next to a key it does not repeat, are the
    // withholding, not another answer.
    const said = () => withheldNotes(a?.data, b?.data, paths);
    const same = () => again.status === first.status && isDeepStrictEqual(strip(a?.data), strip(b?.data, said()));
    // Undeclared, the key may sit under any name: where the scenario's key verified its delivery's
    // signature (or was found), this answer holds its own key too, to be left out and kept out of reports.
    if (!same() && !ctx.declared('webhookSecretField')) {
      const found = await signingKeyPath(ctx);
      if (found && !paths.includes(found)) {
        paths.push(found);
        ctx.note(
          `the signing key's place, ${found.startsWith('(') ? found : `data.${found}`}, was found with the kit's first receiver (left out of the comparison)`,
        );
      }
    }
    for (const p of paths) {
      const shown = keyAtPath(a?.data, first.headers, p);
      if (shown) ctx.redact(shown, 'NCS_SIGNING_KEY');
      // webhooks.signature verifies what this receiver gets with it (a second receiver signs with another).
      if (shown && keyLike(shown)) (await knownSigningKeys(ctx)).set(label, shown);
    }
    ctx.expect.that(same(), {
      expected: `POST ${webhooksPath()} repeated with the key ${key} answers the same status and data (one receiver)`,
      observed: 'the answers differ (diff: first answer expected, repeated answer observed)',
      exchange: again,
      diff: jsonDiff(
        { status: first.status, data: strip(a?.data) },
        { status: again.status, data: strip(b?.data, said()) },
      ),
    });
    // Left out, masked or repeated, but never another key: "issued exactly once" (a replay minting a new key
    // leaves the receiver verifying with one the deployment no longer signs with).
    for (const p of paths) {
      const was = keyAtPath(a?.data, first.headers, p);
      const now = keyAtPath(b?.data, again.headers, p);
      if (!keyLike(was) || !keyLike(now) || now === was) continue;
      ctx.redact(now, 'NCS_SIGNING_KEY');
      ctx.fail({
        expected: `POST ${webhooksPath()} repeated with the key ${key} issues no second signing key ("issued exactly once"; the same response again)`,
        observed: `the repeated answer carries another key at ${p.startsWith('(') ? p : `data.${p}`}`,
        exchange: again,
      });
    }
    ctx.expect.that(b?.meta?.replayed === true && b?.meta?.idempotencyKey === key, {
      expected: 'the repeated answer has meta.replayed true and meta.idempotencyKey set',
      observed: `meta.replayed ${JSON.stringify(b?.meta?.replayed)}, meta.idempotencyKey ${JSON.stringify(b?.meta?.idempotencyKey)}`,
      exchange: again,
    });
    // Sent again at the alternate address and under the earlier version where it is served (the same service, the
    // same key): a replay of the one receiver, not a second one (which would sign what it gets with a key of its own:
    // webhooks.signature verifies this URL's deliveries). Its links may name the address asked, so the status, the
    // marks and the receiver are compared, not the whole answer.
    const [earlier] = await earlierVersionPlace(ctx);
    const elsewhere = [
      ...(ctx.target.altBaseUrl ? [{ what: 'at the alternate address', send: () => send('alt') }] : []),
      ...(earlier ? [{ what: earlier.what, send: () => send('main', earlier.call.headers ?? {}) }] : []),
    ];
    for (const place of elsewhere) {
      const there = await place.send();
      const c = there.json as Answer;
      const same = there.status === first.status && receiverIdOf(c?.data, url) === id;
      ctx.expect.that(same && c?.meta?.replayed === true, {
        expected: `POST ${webhooksPath()} with the key ${key} sent again ${place.what} answers as a replay of the same receiver${id ? ` (${id})` : ''}, meta.replayed true`,
        observed: `${there.status}, receiver ${JSON.stringify(receiverIdOf(c?.data, url))}, meta.replayed ${JSON.stringify(c?.meta?.replayed)}`,
        exchange: there,
      });
    }
    // A whole pair under the earlier version (an older handler's key store cleared for each pinned caller
    // registers a second receiver with a new key, answered as a replay): the same receiver, no second key.
    if (earlier) {
      const pairUrl = `${receiverBaseUrl(ctx, receiver)}/${ctx.label('replay-receiver-earlier')}`;
      const pairKey = freshKey(ctx);
      const sendPair = () =>
        ctx.call('POST', webhooksPath(), {
          json: { url: pairUrl, events: [event.name] },
          headers: { ...(earlier.call.headers ?? {}), 'Idempotency-Key': pairKey },
        });
      const one = await sendPair();
      const oneData = (one.json as Answer)?.data;
      const oneId = receiverIdOf(oneData, pairUrl);
      if (oneId) removeAtRunEnd(ctx, oneId);
      if (one.status !== 200) return;
      const two = await sendPair();
      const twoData = (two.json as Answer)?.data;
      const keyPaths = [...paths, ...secretPaths(oneData, ctx.secrets())];
      const shown = keyPaths.flatMap((p) => [keyAtPath(oneData, one.headers, p), keyAtPath(twoData, two.headers, p)]);
      for (const k of shown) if (keyLike(k)) ctx.redact(k, 'NCS_SIGNING_KEY');
      const another = keyPaths.find((p) => {
        const [was, now] = [keyAtPath(oneData, one.headers, p), keyAtPath(twoData, two.headers, p)];
        return keyLike(was) && keyLike(now) && was !== now;
      });
      ctx.expect.that(two.status === 200 && receiverIdOf(twoData, pairUrl) === oneId && another === undefined, {
        expected: `POST ${webhooksPath()} sent twice ${earlier.what} with one key answers the same receiver${oneId ? ` (${oneId})` : ''} both times and no second signing key`,
        observed: `${two.status}, receiver ${JSON.stringify(receiverIdOf(twoData, pairUrl))}${another ? `, another key at ${another.startsWith('(') ? another : `data.${another}`}` : ''}`,
        exchange: two,
      });
    }
  },
});

export const webhookReplayChecks = [registrationReplay];
