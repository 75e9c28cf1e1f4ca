import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DEPLOYMENT_PROFILE } from './deployment-profile.ts';
import { optionsFromEnv, resolveOptions, UsageError } from './options.ts';
import { decideSafety } from './safety.ts';

describe('options', () => {
  it('normalises base URLs (a trailing /api/public/v1 or slash is fine)', () => {
    expect(resolveOptions({ baseUrl: 'https://staging.example/api/public/v1/' }).baseUrl).toBe(
      'https://staging.example',
    );
    expect(resolveOptions({ baseUrl: 'http://127.0.0.1:4010/' }).baseUrl).toBe('http://127.0.0.1:4010');
    expect(resolveOptions({ baseUrl: 'https://gw.example/ncs', altBaseUrl: 'https://alt.example' }).altBaseUrl).toBe(
      'https://alt.example',
    );
  });

  it('explains wrong or missing options as usage errors', () => {
    const bad: [object, RegExp][] = [
      [{}, /--base-url is required/],
      [{ baseUrl: 'staging.example' }, /absolute http\(s\) URL/],
      [{ baseUrl: 'ftp://x.example' }, /http or https/],
      [{ baseUrl: 'http://x', profile: 'all' }, /full or read-only/],
      [{ baseUrl: 'http://x', token: 't', clientId: 'c', clientSecret: 's', tenant: 'a' }, /either --token or/],
      [{ baseUrl: 'http://x', clientId: 'c', tenant: 'a' }, /go together/],
      [{ baseUrl: 'http://x', token: 't' }, /--tenant is required/],
      [{ baseUrl: 'http://x', grep: '(' }, /not a regular expression/],
      [{ baseUrl: 'http://x', timeoutMs: Number('ten') }, /--timeout/],
      [{ baseUrl: 'http://x', deploymentProfile: { tokenEndpoint: '' } }, /tokenEndpoint/],
      [
        { baseUrl: 'http://x', token: 't', tenant: 'a', otherTenant: 'a' },
        /--other-tenant must name a tenant other than --tenant/,
      ],
      [{ baseUrl: 'http://x', deploymentProfile: { webhookReceiverUrl: 'ftp://hooks.example' } }, /webhookReceiverUrl/],
    ];
    for (const [o, re] of bad) {
      let err: unknown;
      try {
        resolveOptions(o);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(o)).toBeInstanceOf(UsageError);
      expect((err as Error).message).toMatch(re);
    }
  });

  it('takes the token endpoint from the deployment profile, relative to the base URL, else leaves it to discovery', () => {
    const o = resolveOptions({
      baseUrl: 'https://staging.example/api/public/v1',
      clientId: 'c',
      clientSecret: 's',
      tenant: 't',
    });
    // Nothing declared: found at run time (RFC 8414 metadata, the self-description).
    expect(o.credentials).toEqual({
      kind: 'client-credentials',
      clientId: 'c',
      clientSecret: 's',
    });
    const custom = resolveOptions({
      baseUrl: 'https://staging.example',
      clientId: 'c',
      clientSecret: 's',
      tenant: 't',
      deploymentProfile: { tokenEndpoint: 'https://auth.example/token' },
    });
    expect(custom.credentials).toMatchObject({ tokenUrl: 'https://auth.example/token' });
    expect(resolveOptions({ baseUrl: 'http://x' }).credentials).toEqual({ kind: 'none' });
  });

  it('reads NCS_* environment variables', () => {
    const o = optionsFromEnv({
      NCS_BASE_URL: 'http://x',
      NCS_ALT_BASE_URL: 'http://y',
      NCS_TENANT: 't',
      NCS_TOKEN: 'tok',
      NCS_PROFILE: 'read-only',
      NCS_ENVIRONMENT: 'production',
      NCS_ALLOW_MUTATIONS: 'true',
      NCS_GREP: 'errors',
      NCS_TIMEOUT: '2500',
      NCS_CLIENT_ID: '',
      PATH: '/bin',
      NCS_OTHER_TENANT: 'u',
      NCS_ADMIN_TOKEN: 'adm',
    });
    expect(o).toEqual({
      baseUrl: 'http://x',
      altBaseUrl: 'http://y',
      tenant: 't',
      token: 'tok',
      profile: 'read-only',
      environment: 'production',
      allowMutations: true,
      grep: 'errors',
      timeoutMs: 2500,
      otherTenant: 'u',
      adminToken: 'adm',
    });
    expect(resolveOptions({ ...o, deploymentProfile: { webhookReceiverUrl: 'loopback' } })).toMatchObject({
      otherTenant: 'u',
      adminToken: 'adm',
      deployment: { webhookReceiverUrl: 'loopback', webhookReceiverPort: 0 },
    });
  });

  it('loads a deployment profile file and completes it with the simulator defaults', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-profile-'));
    const file = join(dir, 'p.json');
    writeFileSync(file, JSON.stringify({ environment: 'production', webhookSignatureHeader: 'X-Signature' }));
    const o = resolveOptions({ baseUrl: 'http://x', deploymentProfile: file });
    expect(o.deployment).toEqual({
      ...DEFAULT_DEPLOYMENT_PROFILE,
      environment: 'production',
      webhookSignatureHeader: 'X-Signature',
    });
    expect(o.environment).toBe('production');
    writeFileSync(file, JSON.stringify({ webhookSignatureHeaders: 'typo' }));
    expect(() => resolveOptions({ baseUrl: 'http://x', deploymentProfile: file })).toThrow(/webhookSignatureHeaders/);
    writeFileSync(file, '{not json');
    expect(() => resolveOptions({ baseUrl: 'http://x', deploymentProfile: file })).toThrow(/not JSON/);
    expect(() => resolveOptions({ baseUrl: 'http://x', deploymentProfile: join(dir, 'none.json') })).toThrow(
      /cannot read/,
    );
  });
});

describe('safety', () => {
  it('defaults to read-only for production and needs --allow-mutations there', () => {
    expect(decideSafety({ allowMutations: false })).toEqual({
      profile: 'full',
      production: false,
      mutationsAllowed: true,
    });
    expect(decideSafety({ environment: 'sandbox', allowMutations: false }).mutationsAllowed).toBe(true);
    expect(decideSafety({ environment: 'production', allowMutations: false })).toEqual({
      profile: 'read-only',
      production: true,
      mutationsAllowed: false,
    });
    expect(decideSafety({ environment: 'production', profile: 'full', allowMutations: false }).mutationsAllowed).toBe(
      false,
    );
    expect(decideSafety({ environment: 'production', profile: 'full', allowMutations: true }).mutationsAllowed).toBe(
      true,
    );
    expect(
      decideSafety({ environment: 'production', profile: 'read-only', allowMutations: true }).mutationsAllowed,
    ).toBe(false);
    expect(decideSafety({ profile: 'read-only', allowMutations: false }).mutationsAllowed).toBe(false);
  });
});
