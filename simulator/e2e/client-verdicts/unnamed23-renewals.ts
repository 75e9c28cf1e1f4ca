import { auth, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';
import { machineryFibonacci } from './unnamed23-kit.ts';

/**
 * Round 23, one process renewing its token in the middle of a retry sequence: the renewal makes it no other
 * process (it never has two tokens in use at once), so what it owes carries over to the new token.
 */
export const RENEWALS_MISBEHAVING_23: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": a Machinery worker whose token source renews (the old token
  // near its expiry) between the second and third attempt of a read retried five times.
  {
    does: 'is a Go Machinery worker renewing its token near expiry between the second and third of five attempts of one read',
    fails: ['retry.attempt-limit'],
    async run(t) {
      let a = auth(t, undefined, 60);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 4 });
      const send = (n: number) => {
        if (n === 2) a = auth(t, undefined, 3_600);
        return get(t, a, '/connectors');
      };
      ok('read', await loop(sleeper(t), send, machineryFibonacci, 4));
    },
  },
  // "respect the wait time of the response": a worker that takes a 429 (Retry-After 6) for an auth problem,
  // fetches a new token and retries with it after 1 s.
];
