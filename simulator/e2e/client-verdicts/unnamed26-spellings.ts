import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { warmSocket } from './unnamed25-socket.ts';

/**
 * Round 26, clients whose URL was joined with a doubled slash. The client-rules README says paths are
 * compared "as the service routes them: `/providers/` and `//providers` are `/providers`", but the service
 * answers `//providers` 404 (and `/providers/` 200): a request to `//x` never reached route x, so fixing the
 * join is a new request, not a repeat of the 404.
 */
export const SPELLINGS_WELL_BEHAVED_26: UnnamedClient2[] = [
  // "not_found ... remedy: compare identifier and tenant": a URL joined with a doubled slash (`base + '/' +
  // '/providers'`) is answered 404 (the service does not route //providers); the client fixes the join and
  // reads /providers 1 s later: another request, as the service routes it.
  {
    does: 'reads //providers (a URL joined with a doubled slash), answered 404, fixes the join and reads /providers 1 s later',
    pass: [],
    async run(t) {
      const a = auth(t);
      const bad = await get(t, a, '//providers');
      if (bad.status !== 404) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(1_000);
      ok('fixed', await get(t, a, '/providers'));
    },
  },
  // The same for a create: `//connections` answered 404 never reached the create route (nothing was
  // committed, nothing is replayed); the fixed call under the same key is the operation's first real attempt.
  {
    does: 'posts a create to //connections (a doubled slash), answered 404, fixes the join and sends it to /connections 1 s later under the same key',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Slash Souvlaki' };
      const bad = await api(t, a, 'POST', '//connections', { body, key: 'slash-fix-4d1e0b77' });
      if (bad.status !== 404) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(1_000);
      ok('fixed', await createWith(t, a, body, 'slash-fix-4d1e0b77'));
    },
  },
  // "the same key with the same content": a hand-written HTTP/1.1 retry pads the header value with spaces
  // (`Idempotency-Key:   key  `); HTTP drops the surrounding whitespace, so it is the same key.
  {
    does: 'retries a create refused 500 after 900 ms over a raw HTTP/1.1 socket whose Idempotency-Key value is padded with spaces',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Padded Paella' };
      const first = await createWith(t, a, body, 'padded-key-3e8f21aa');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(900);
      const socket = await warmSocket(t);
      ok('retry', await socket.send(a, 'POST', '/connections', { body, key: '   padded-key-3e8f21aa  ' }));
    },
  },
];
