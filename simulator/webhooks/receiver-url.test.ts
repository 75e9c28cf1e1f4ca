import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/api-error.ts';
import { checkReceiverUrl, DEFAULT_WEBHOOK_HOSTS } from './receiver-url.ts';

const check = (url: string) => checkReceiverUrl(url, DEFAULT_WEBHOOK_HOSTS);
const detailOf = (url: string) => {
  try {
    check(url);
  } catch (err) {
    if (err instanceof ApiError) return err.detail;
    throw err;
  }
  return 'accepted';
};

describe('checkReceiverUrl (attacks round 5)', () => {
  it('refuses an empty user-info, which WHATWG URL drops silently but other parsers read as credentials', () => {
    for (const url of ['http://@127.0.0.1:9/x', 'http://:@127.0.0.1:9/x', 'http:\\\\@127.0.0.1:9/x'])
      expect(detailOf(url), url).toMatch(/must not contain credentials/);
  });

  it('refuses port 0, which no receiver can listen on', () => {
    expect(detailOf('http://127.0.0.1:0/x')).toMatch(/port 0/);
    expect(detailOf('http://[::1]:00/x')).toMatch(/port 0/);
  });

  it('still accepts an @ in the path or query, and ordinary loopback ports', () => {
    for (const url of [
      'http://127.0.0.1:9/a@b',
      'http://127.0.0.1:9/x?to=a@b',
      'http://localhost:65535/',
      'http://[::1]/',
    ])
      expect(detailOf(url), url).toBe('accepted');
  });
});
