// Idempotency keys, per access and tenant, compared whole and case-sensitively. The fingerprint is the
// operation plus the canonical JSON of the body (member order does not matter). Only successes are kept:
// a refused call leaves the key free. A call in flight holds its key, so concurrent copies wait and replay.
import type { State } from './state.ts';
import { type Answer, canonical, fail } from './util.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 3600 * 1000;

interface Held {
  fingerprint: string;
  answer: Promise<Answer>;
  expiresAt: number;
}

const stores = new WeakMap<State, Map<string, Held>>();

function store(state: State): Map<string, Held> {
  let s = stores.get(state);
  if (!s) {
    s = new Map();
    stores.set(state, s);
  }
  return s;
}

export interface KeyedResult {
  answer: Answer;
  replayed: boolean;
}

/** Runs `exec` once per key and content; the same key with other content is a conflict. */
export async function withKey(
  state: State,
  scope: string,
  key: string,
  operation: string,
  body: unknown,
  exec: () => Promise<Answer> | Answer,
): Promise<KeyedResult> {
  const s = store(state);
  const id = `${scope}\u0000${key}`;
  const fingerprint = `${operation} ${canonical(body)}`;
  const now = Date.now();
  const held = s.get(id);
  if (held && held.expiresAt > now) {
    if (held.fingerprint !== fingerprint)
      return {
        answer: fail(
          'idempotency_conflict',
          'this Idempotency-Key was used with other content',
          'use a new key for each new operation',
        ),
        replayed: false,
      };
    const answer = await held.answer;
    return { answer, replayed: answer.status === 200 };
  }
  const answer = Promise.resolve().then(exec);
  s.set(id, { fingerprint, answer, expiresAt: now + KEY_TTL_MS });
  const result = await answer.catch((): Answer => fail('internal', 'the operation failed'));
  if (result.status !== 200) s.delete(id);
  return { answer: result, replayed: false };
}
