import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../simulator/app/serve.ts';
import { createJsonReporter } from '../reporters/json.ts';
import { toHtmlReport } from '../reporters/html.ts';
import { toJUnitXml } from '../reporters/junit.ts';
import type { FetchLike } from '../client/http-client.ts';
import type { RunEvent } from '../runner/events.ts';
import { runConformanceCommand } from '../runner/run-command.ts';
import { runConformance } from '../runner/run.ts';
import { violationOptions } from '../violations/index.ts';
import { hostileTarget, notTheInterface } from './hostile-target.ts';

/** Control characters other than the line breaks the reporters write themselves. */
const controls = (text: string) =>
  [...text].filter((c) => {
    const code = c.charCodeAt(0);
    return c !== '\n' && (code < 0x20 || (code >= 0x7f && code <= 0x9f));
  });

function capture() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: (t: string) => {
        out.stdout += t;
      },
      stderr: (t: string) => {
        out.stderr += t;
      },
      env: {},
      color: false,
    },
  };
}

describe('the kit against deployments that are not this interface, or are hostile', () => {
  let sim: RunningServer;
  beforeAll(async () => {
    sim = await serve({ port: 0 });
  });
  afterAll(() => sim.close());

  it('stops at once with exit 2 and one line when the target does not describe itself as the interface', async () => {
    const ok = await notTheInterface('ok-to-everything');
    const html = await notTheInterface('html-404');
    const escapes = await notTheInterface('escapes');
    try {
      for (const baseUrl of [ok.baseUrl, html.baseUrl, escapes.baseUrl, `${sim.baseUrl}/api/public/v2`]) {
        const { out, io } = capture();
        const code = await runConformanceCommand({ baseUrl, tenant: sim.tenant, token: sim.token }, io);
        expect(code, baseUrl).toBe(2);
        expect(out.stdout, baseUrl).toBe('');
        expect(out.stderr.split('\n').filter(Boolean), baseUrl).toHaveLength(1);
        expect(out.stderr).toMatch(/does not describe itself as this interface/);
        expect(controls(out.stderr)).toEqual([]);
      }
    } finally {
      await Promise.all([ok.close(), html.close(), escapes.close()]);
    }
  });

  it('escapes every control character a hostile deployment sends, on stdout and stderr', async () => {
    const target = await hostileTarget();
    try {
      const { out, io } = capture();
      const code = await runConformanceCommand(
        { baseUrl: target.baseUrl, tenant: target.tenant, token: target.token, grep: 'errors|catalog|envelope' },
        io,
      );
      expect([code, out.stderr]).toEqual([1, '']);
      expect(out.stdout).toMatch(/\\e\[2J/);
      expect(controls(out.stdout)).toEqual([]);
      expect(controls(out.stderr)).toEqual([]);
      // No forged line: the fake "passed" stays inside the line that quotes it.
      expect(out.stdout.split('\n').some((l) => /^\s*\\e\[32m✓/.test(l) || /^\s+✓ everything passed/.test(l))).toBe(
        false,
      );
    } finally {
      await target.close();
    }
  });

  it('reads at most --max-body-bytes of an answer that never ends, and says so', async () => {
    const target = await hostileTarget({ hugeBody: true });
    try {
      const result = await runConformance({
        baseUrl: target.baseUrl,
        tenant: target.tenant,
        token: target.token,
        grep: '^catalog\\.|^responses\\.envelope$',
        maxBodyBytes: 64 * 1024,
        timeoutMs: 5_000,
      });
      expect([result.exitCode, result.error]).toEqual([1, undefined]);
      expect(result.notices.join('\n')).toMatch(/longer than 65536 bytes: the kit read the first 65536 bytes/);
      const observed = result.results.flatMap((r) => r.failures.map((f) => f.observed)).join('\n');
      expect(observed).toMatch(/only the first 65536 bytes were read/);
    } finally {
      await target.close();
    }
  });

  it('makes too little coverage fail with --require (a fraction or check names)', async () => {
    const base = { baseUrl: sim.baseUrl };
    const bare = await runConformance({ ...base, require: 0.9 });
    expect(bare.exitCode).toBe(1);
    expect(bare.summary.mustFailed).toBe(0);
    expect(bare.summary.coverage.requirement).toMatchObject({ met: false });
    const named = await runConformance({ ...base, require: 'audit.records-change,discovery.openapi-valid' });
    expect(named.exitCode).toBe(1);
    expect(named.summary.coverage.requirement?.shortfall).toMatch(/audit\.records-change skipped \(no credentials/);
    const met = await runConformance({ ...base, tenant: sim.tenant, token: sim.token, require: '50%' });
    expect([met.exitCode, met.summary.coverage.requirement?.met]).toEqual([0, true]);
    // The console leads with coverage and says plainly why most was skipped.
    const { out, io } = capture();
    expect(await runConformanceCommand({ baseUrl: sim.baseUrl, require: '0.9' }, io)).toBe(1);
    const tail = out.stdout.split('\n').slice(-6).join('\n');
    expect(tail).toMatch(/coverage: \d+ of \d+ checks judged \(\d+%\), \d+ of \d+ MUST rules judged/);
    expect(tail).toMatch(/\d+ of \d+ checks were skipped for lack of credentials/);
    expect(tail).toMatch(/too little coverage: --require/);
    expect(tail).not.toMatch(/^conformant/m);
  });
});

describe('every report redacts the secrets the run created', () => {
  let leaky: RunningServer;
  beforeAll(async () => {
    leaky = await serve({ port: 0, ...violationOptions('webhook-registration-201') });
  });
  afterAll(() => leaky.close());

  it("keeps the kit's temporary receiver's signing key out of console, JSON, JUnit and HTML", async () => {
    const events: RunEvent[] = [];
    let json = '';
    const jsonReporter = createJsonReporter({
      write: (t: string) => {
        json += t;
      },
    });
    // The signing keys the deployment handed out, read off the wire beside the kit.
    const secrets: string[] = [];
    const spy: FetchLike = async (url, init) => {
      const res = await fetch(url, init);
      if (init.method === 'POST' && url.endsWith('/api/public/v1/webhooks')) {
        const secret = (JSON.parse(await res.clone().text()) as { data?: { signingSecret?: string } }).data
          ?.signingSecret;
        if (secret) secrets.push(secret);
      }
      return res;
    };
    const result = await runConformance({
      baseUrl: leaky.baseUrl,
      tenant: leaky.tenant,
      token: leaky.token,
      fetch: spy,
      grep: '^webhooks\\.registration$',
      onEvent: (e) => {
        events.push(e);
        jsonReporter.onEvent(e);
      },
    });
    expect(result.exitCode).toBe(1);
    expect(secrets.length).toBeGreaterThan(0);
    const start = events.find((e) => e.type === 'run-start') as Extract<RunEvent, { type: 'run-start' }>;
    const end = events.find((e) => e.type === 'run-end') as Extract<RunEvent, { type: 'run-end' }>;
    const reports = [toHtmlReport(start, end), toJUnitXml(end, start.startedAt), json, JSON.stringify(result)];
    for (const report of reports) for (const s of secrets) expect(report).not.toContain(s);
    expect(reports[0]).toContain('$NCS_SIGNING_SECRET');
  });
});
