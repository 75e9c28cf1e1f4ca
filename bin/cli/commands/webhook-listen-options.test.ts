import { describe, expect, it } from 'vitest';
import { listenOptionsFrom } from './webhook-listen-options.ts';

describe('ncs webhook listen options', () => {
  it('takes flags, then the ready file, then NCS_* variables; refuses what cannot work', () => {
    const env = { NCS_TOKEN: 't', NCS_TENANT: 'x', NCS_BASE_URL: 'http://127.0.0.1:9/api/public/v1' };
    expect(listenOptionsFrom({}, env)).toEqual({ baseUrl: 'http://127.0.0.1:9', token: 't', tenant: 'x' });
    expect(
      listenOptionsFrom({ events: 'a, b', forwardTo: 'http://127.0.0.1:3/h' }, { ...env, NCS_WEBHOOK_SECRET: 's' }),
    ).toMatchObject({
      events: ['a', 'b'],
      forwardSecret: 's',
    });
    expect(listenOptionsFrom({}, { ...env, NCS_WEBHOOK_SECRET: 's' })).not.toHaveProperty('forwardSecret');
    expect(() => listenOptionsFrom({}, {})).toThrow(/needs --token and --tenant/);
    expect(() => listenOptionsFrom({ forwardSecret: 's' }, env)).toThrow(/--forward-secret needs --forward-to/);
    expect(() => listenOptionsFrom({ forwardTo: 'localhost:3000' }, env)).toThrow(/absolute http/);
  });
});
