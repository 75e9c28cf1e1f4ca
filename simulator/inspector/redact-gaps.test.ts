import { afterEach, describe, expect, it } from 'vitest';
import type { PlainRequest } from '../core/types.ts';
import { createSandbox, type Sandbox } from '../app/sandbox.ts';
import { redactBody, redactHeaders } from './redact.ts';

// Issue 23 item 8: every secret the journal holds is masked when shown, whatever its wrapping.
let sandbox: Sandbox;
afterEach(() => sandbox?.state.close());
const enc = new TextEncoder();

function call(req: Partial<PlainRequest> & { path: string }) {
  return sandbox.core.handle({
    method: 'GET',
    query: {},
    origin: 'http://127.0.0.1:4010',
    ...req,
    headers: { host: '127.0.0.1:4010', ...req.headers },
  });
}
const newest = () => sandbox.inspector!.journal.get(sandbox.inspector!.journal.list({ limit: 1 })[0]!.seq)!;

describe('journal redaction gaps', () => {
  it('masks the authorization code in the 302 Location of /oauth/authorize', async () => {
    sandbox = createSandbox();
    const redirect = 'http://127.0.0.1:8976/callback';
    const res = await call({
      path: '/oauth/authorize',
      query: {
        response_type: 'code',
        client_id: 'harbour-mobile',
        redirect_uri: redirect,
        scope: 'catalog:read',
        state: 'xyz',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      },
    });
    expect(res.status).toBe(302);
    const code = new URL(res.headers.location!).searchParams.get('code')!;
    expect(code).toMatch(/^ncs_ac_/);
    const shown = newest();
    expect(JSON.stringify(shown)).not.toContain(code);
    expect(shown.responseHeaders.location).toContain('state=xyz');
  });

  it('masks client_secret in text/plain and multipart bodies', async () => {
    sandbox = createSandbox();
    const secret = 'hk-sandbox-secret-5f2c9a7e1b3d4c60';
    await call({
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': 'text/plain' },
      body: enc.encode(`grant_type=client_credentials&client_id=harbour-backend&client_secret=${secret}`),
    });
    expect(JSON.stringify(newest())).not.toContain(secret);
    const multipart = [
      '--XyZ',
      'Content-Disposition: form-data; name="grant_type"',
      '',
      'client_credentials',
      '--XyZ',
      'Content-Disposition: form-data; name="client_secret"',
      '',
      secret,
      '--XyZ--',
      '',
    ].join('\r\n');
    await call({
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
      body: enc.encode(multipart),
    });
    const shown = newest();
    expect(shown.requestBody).not.toContain(secret);
    expect(shown.requestBody).toContain('client_credentials');
  });

  it('masks tokens sent under unusual header names, by what the value looks like', () => {
    const out = redactHeaders({
      'x-auth': 'Bearer ncs_at_abcdefghijklmnop',
      'x-upstream-credential': 'ncs_at_abcdefghijklmnop',
      'x-forwarded-access': 'Basic aGFyYm91cjpzZWNyZXQ=',
      'x-hook': 'whsec_abcdefghijklmnopqrstuvwx',
      accept: 'application/json',
    });
    expect(JSON.stringify(out)).not.toMatch(/abcdefghijklmnop|aGFyYm91cjpzZWNyZXQ=|whsec_abc/);
    expect(out['x-auth']).toBe('Bearer [redacted]');
    expect(out.accept).toBe('application/json');
  });

  it('masks the password of a refused http://user:pass@ webhook URL, in request and answer', async () => {
    sandbox = createSandbox();
    const { token, tenant } = sandbox.issueToken();
    const res = await call({
      method: 'POST',
      path: '/api/public/v1/webhooks',
      headers: {
        authorization: `Bearer ${token}`,
        'x-service-tenant': tenant,
        'idempotency-key': 'key-redact-0001',
        'content-type': 'application/json',
      },
      body: enc.encode(JSON.stringify({ url: 'http://hooks:pa55word-xyz@127.0.0.1:9/h', events: ['order.paid'] })),
    });
    expect(res.status).toBe(400);
    const shown = newest();
    expect(JSON.stringify(shown)).not.toContain('pa55word-xyz');
    expect(shown.requestBody).toContain('hooks:[redacted]@127.0.0.1');
    expect(redactBody('see http://u:p4ss@h.example/x')).not.toContain('p4ss');
  });
});
