// The invariants read GET /connections to see what a creation or a refusal wrote. A deployment that still answers
// that read 429 after the retry policy (a tight window spent by the run) shows no connection: no verdict on what
// was written (boxelder's 40 calls per 10 s made generated.refusal-changes-nothing read "no connection"). Over real
// HTTP: every list read answered 429, the creations answered as usual.
import { describe, expect, it } from 'vitest';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Core } from '../../simulator/index.ts';
import { refusalChangesNothing, replayEqualsOriginal } from '../generated/invariant-checks.ts';
import { runConformance } from '../runner/run.ts';
import { failureOf } from '../violations/json-edit.ts';
import { httpTarget, noWait } from './targets.ts';

const listsPaced = (core: Core): Core => ({
  ...core,
  async handle(req) {
    if (req.method !== 'GET' || req.path !== `${BASE_PATH}/connections`) return core.handle(req);
    const limited = failureOf('rate_limited', 'window spent');
    return { ...limited, headers: { ...limited.headers, 'retry-after': '0' } };
  },
});

describe('the invariants and a list read still answered 429', () => {
  it('judge the creation and the refusals, and leave the list unjudged, saying so', async () => {
    const target = await httpTarget({ wrapCore: listsPaced });
    try {
      const run = await runConformance({
        ...target.kit,
        retry: noWait,
        checks: [replayEqualsOriginal, refusalChangesNothing],
      });
      const [replay, refusal] = run.results;
      expect(replay?.status).toBe('pass');
      expect(replay?.notes.join(' ')).toMatch(/GET \/connections answered 429: the count not judged/);
      expect(refusal?.status).toBe('pass');
      expect(refusal?.notes.join(' ')).toMatch(/answered 429 before and 429 after: the original not compared/);
    } finally {
      await target.close();
    }
  });
});
