import { describe, expect, it } from 'vitest';
import { publicOrigin } from './serve.ts';

describe('serve options', () => {
  it('--public-url takes an http(s) origin and refuses paths, credentials and non-URLs', () => {
    expect(publicOrigin('https://sandbox.partner.example/')).toBe('https://sandbox.partner.example');
    expect(publicOrigin('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
    expect(() => publicOrigin('sandbox.example')).toThrow(/absolute http\(s\) URL/);
    expect(() => publicOrigin('ftp://x.example')).toThrow(/http\(s\) origin/);
    expect(() => publicOrigin('https://u:p@x.example')).toThrow(/without credentials/);
    expect(() => publicOrigin('https://u:hunter2@x.example')).toThrow(/u:\*\*\*@x\.example/);
    expect(() => publicOrigin('https://u:hunter2@x.example')).not.toThrow(/hunter2/);
    expect(() => publicOrigin('https://x.example/api')).toThrow(/without a path/);
  });
});
