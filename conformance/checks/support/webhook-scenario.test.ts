import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../client/http-client.ts';
import { createRedactor } from '../../client/redact.ts';
import type { CheckContext } from '../../runner/check.ts';
import { redactSigningKeys, webhooksPath } from './webhook-scenario.ts';

describe('redactSigningKeys (every signing key of the run, under any name)', () => {
  it("redacts the value at the found key's path in every registration answer, also those made later", async () => {
    const redactor = createRedactor();
    const atEnd: (() => unknown)[] = [];
    const answers: { check: string; ex: Exchange }[] = [];
    const register = (key: string) =>
      answers.push({
        check: 'webhooks.x',
        ex: {
          method: 'POST',
          url: `http://127.0.0.1:1${webhooksPath()}`,
          headers: {},
          json: { ok: true, data: { id: 'wh', material: { hmac: key } } },
        } as unknown as Exchange,
      });
    const ctx = {
      exchanges: () => answers,
      redact: (value: string, env: string) => redactor.add(value, env, { leakChecked: false }),
      atRunEnd: (f: () => unknown) => void atEnd.push(f),
    } as unknown as CheckContext;
    register('hk_first_0123456789abcdef');
    redactSigningKeys(ctx, 'material.hmac');
    register('hk_later_0123456789abcdef');
    for (const f of atEnd) await f();
    // Named like nothing the kit knows: before, only fields named like a secret were redacted.
    expect(redactor.text('expected "hk_first_0123456789abcdef", then hk_later_0123456789abcdef')).toBe(
      'expected "$NCS_SIGNING_KEY", then $NCS_SIGNING_KEY',
    );
  });
});
