import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { toCurl } from './curl.ts';
import { createRedactor } from './redact.ts';

const TOKEN = 'ncs_at_Zx9-secret-token';

describe('toCurl', () => {
  const redactor = createRedactor();
  redactor.add(TOKEN, 'NCS_TOKEN');
  redactor.add('hk-client-secret-123', 'NCS_CLIENT_SECRET');

  it('replaces the bearer token by $NCS_TOKEN and quotes everything else literally', () => {
    const cmd = toCurl(
      {
        method: 'POST',
        url: 'http://127.0.0.1:4010/api/public/v1/capabilities',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'x-service-tenant': 'harbour-kitchens',
          'content-type': 'application/json',
          'content-length': '12',
        },
        body: `{"connectorId":"it's","capability":"$HOME"}`,
      },
      redactor,
    );
    expect(cmd).not.toContain(TOKEN);
    expect(cmd).toBe(
      `curl -sS -i -X POST 'http://127.0.0.1:4010/api/public/v1/capabilities' -H 'authorization: Bearer '"$NCS_TOKEN" ` +
        `-H 'x-service-tenant: harbour-kitchens' -H 'content-type: application/json' --data-raw '{"connectorId":"it'\\''s","capability":"$HOME"}'`,
    );
  });

  it('is a command a shell parses back into the original arguments with the variable filled in', () => {
    const cmd = toCurl(
      { method: 'GET', url: 'http://x/a?b=1&c=2', headers: { Authorization: `Bearer ${TOKEN}`, 'X-Odd': `a'b"c$d` } },
      redactor,
    );
    // Let the shell split the words (printf prints one per line) with the secret provided through the environment.
    const words = execFileSync('sh', ['-c', `printf '%s\\n' ${cmd.replace(/^curl /, '')}`], {
      env: { NCS_TOKEN: TOKEN },
      encoding: 'utf8',
    })
      .trimEnd()
      .split('\n');
    expect(words).toEqual([
      '-sS',
      '-i',
      'http://x/a?b=1&c=2',
      '-H',
      `Authorization: Bearer ${TOKEN}`,
      '-H',
      `X-Odd: a'b"c$d`,
    ]);
  });

  it('redacts secrets anywhere, also in bodies', () => {
    const cmd = toCurl(
      { method: 'POST', url: 'http://x/oauth/token', headers: {}, body: 'client_secret=hk-client-secret-123' },
      redactor,
    );
    expect(cmd).toContain(`'client_secret='"$NCS_CLIENT_SECRET"`);
    expect(redactor.text(`x ${TOKEN} y ${TOKEN}`)).toBe('x $NCS_TOKEN y $NCS_TOKEN');
    expect(redactor.contains(`…${TOKEN}…`)).toBe(true);
  });

  it('ignores secrets too short to be told apart from ordinary text', () => {
    const r = createRedactor();
    r.add('abc', 'X');
    r.add(undefined, 'Y');
    expect(r.text('abc')).toBe('abc');
    expect(r.secrets()).toEqual([]);
  });
});
