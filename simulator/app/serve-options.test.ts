import { describe, expect, it } from 'vitest';
import { rateLimitOption, retryBaseMs, serveOptionsFrom, webhookHostsOption } from './serve-options.ts';

describe('ncs serve options', () => {
  it('--webhook-allow-host adds hosts to the loopback default and refuses URLs and ports', () => {
    expect(webhookHostsOption(undefined)).toBeUndefined();
    expect(webhookHostsOption(['Hooks.Partner.test', '*.corp.test', '10.0.0.7', '[::2]'])).toEqual([
      'localhost',
      '127.0.0.0/8',
      '::1',
      'hooks.partner.test',
      '*.corp.test',
      '10.0.0.7',
      '::2',
    ]);
    expect(() => webhookHostsOption(['https://hooks.partner.test'])).toThrow(/not a URL or a port/);
    expect(() => webhookHostsOption(['hooks.partner.test:8443'])).toThrow(/not a URL or a port/);
  });
});

describe('--rate-limit options', () => {
  it('parses calls/seconds, off and presets; refuses the rest', () => {
    expect(rateLimitOption({})).toBeUndefined();
    expect(rateLimitOption({ rateLimit: '100/10' })).toEqual({ limit: 100, windowSeconds: 10 });
    expect(rateLimitOption({ rateLimit: 'off' })).toBe(false);
    expect(rateLimitOption({ rateLimitPreset: 'low' })).toEqual({ limit: 5, windowSeconds: 10 });
    expect(() => rateLimitOption({ rateLimit: '100' })).toThrow(/<calls>\/<seconds>/);
    expect(() => rateLimitOption({ rateLimit: '0/10' })).toThrow(/>= 1/);
    expect(() => rateLimitOption({ rateLimitPreset: 'tiny' })).toThrow(/default, low/);
    expect(() => rateLimitOption({ rateLimit: '1/1', rateLimitPreset: 'low' })).toThrow(/not both/);
  });
});

describe('serveOptionsFrom', () => {
  it('maps the checked flags onto the simulator options; the env admin token is the fallback', () => {
    const log = () => undefined;
    const o = serveOptionsFrom(
      { host: '127.0.0.1', port: 0, altPort: 0, tokenTtl: 60, quiet: true, journalSize: '20', streamLimit: '2/4' },
      log,
      { NCS_ADMIN_TOKEN: 'adm' },
    );
    expect(o).toMatchObject({
      host: '127.0.0.1',
      port: 0,
      altPort: 0,
      tokenTtlSeconds: 60,
      adminToken: 'adm',
      inspector: { journalSize: 20 },
      stream: { limits: { maxClientsPerFeed: 2, maxClients: 4 } },
    });
    expect(o).not.toHaveProperty('log');
    expect(serveOptionsFrom({ host: 'h', port: 1, inspector: false }, log, {})).toMatchObject({
      inspector: false,
      log,
    });
    expect(() => serveOptionsFrom({ host: 'h', port: 1, journalSize: '0' }, log, {})).toThrow(/--journal-size/);
    expect(() => serveOptionsFrom({ host: 'h', port: 1, journalBytes: 'lots' }, log, {})).toThrow(/--journal-bytes/);
    expect(serveOptionsFrom({ host: 'h', port: 1, journalBytes: '64m' }, log, {}).inspector).toEqual({
      journalBytes: 64 * 1024 * 1024,
    });
  });

  it('--trace or NCS_TRACE=1 turns the step trace on; nothing else does', () => {
    const base = { host: '127.0.0.1', port: 0 };
    expect(serveOptionsFrom({ ...base, trace: true }, () => {}, {}).trace).toBeTypeOf('function');
    expect(serveOptionsFrom(base, () => {}, { NCS_TRACE: '1' }).trace).toBeTypeOf('function');
    expect(serveOptionsFrom(base, () => {}, {}).trace).toBeUndefined();
  });

  it('--webhook-retry-base sets the first retry wait, kept beside the receiver hosts; bad values are refused', () => {
    const base = { host: '127.0.0.1', port: 0 };
    expect(serveOptionsFrom(base, () => {}, {}).webhooks).toBeUndefined();
    expect(serveOptionsFrom({ ...base, webhookRetryBase: 100 }, () => {}, {}).webhooks).toEqual({ baseDelayMs: 100 });
    expect(
      serveOptionsFrom({ ...base, webhookRetryBase: 0, webhookAllowHost: ['hooks.partner.test'] }, () => {}, {})
        .webhooks,
    ).toMatchObject({ baseDelayMs: 0, allowedHosts: expect.arrayContaining(['hooks.partner.test']) });
    expect(retryBaseMs('250')).toBe(250);
    for (const bad of ['-1', '1.5', '1s', '', '60001'])
      expect(() => retryBaseMs(bad), bad).toThrow(/whole number of ms from 0 to 60000/);
  });
});
