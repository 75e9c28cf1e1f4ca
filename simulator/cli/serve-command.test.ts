import { describe, expect, it } from 'vitest';
import { webhookHostsOption } from './serve-command.ts';

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
