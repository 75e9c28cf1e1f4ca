import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NCS_BIN, type ReadyInfo, waitForReadyFile } from './ready-file.ts';

// Drives Debian's chromium (never a downloaded browser) through the inspector and the HTML report.
// NCS_SCREENSHOTS=1 also refreshes the README's screenshots in .readme/.
// CHROMIUM_PATH, when set, is the only candidate (also a way to see the skip: CHROMIUM_PATH=/nowhere).
const CHROMIUM = (
  process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : ['/usr/bin/chromium', '/usr/bin/chromium-browser']
).find((p) => existsSync(p));
const SHOTS =
  process.env.NCS_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../.readme/', import.meta.url)) : undefined;
const title = CHROMIUM
  ? 'inspector and HTML report in headless Chromium'
  : 'inspector and HTML report in headless Chromium — SKIPPED: no chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

if (!CHROMIUM) console.warn(`skipping the browser test: ${title.split('SKIPPED: ')[1]}`);

let serveProcess: ChildProcess;
let banner = '';
let ready: ReadyInfo;
let browser: Browser;
let page: Page;
let receiver: Server;
let receiverFails = true;
const dir = mkdtempSync(join(tmpdir(), 'ncs-inspector-'));

function ncs(args: string[]): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [NCS_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout!.on('data', (c) => (stdout += c));
    child.on('close', (status) => resolve({ status, stdout }));
  });
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${ready.baseUrl}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${ready.token}`,
      'x-service-tenant': ready.tenant,
      'content-type': 'application/json',
      ...init.headers,
    },
  });

/** A call of the control plane with the admin token. */
const control = (path: string, body?: unknown) =>
  fetch(`${ready.baseUrl}/_sandbox${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${ready.adminToken}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe.skipIf(!CHROMIUM)(title, () => {
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      res.writeHead(receiverFails ? 500 : 204).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const readyFile = join(dir, 'ready.json');
    // The violation gives the conformance run below a real failure to show; it touches only GET /providers.
    serveProcess = spawn(
      process.execPath,
      [NCS_BIN, 'serve', '--port', '0', '--ready-file', readyFile, '--violation', 'provider-field-missing'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    serveProcess.stdout!.on('data', (c) => (banner += c));
    ready = await waitForReadyFile(readyFile);
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox'] });
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    serveProcess?.kill('SIGTERM');
    receiver?.close();
  });

  it('logs in through the URL printed in the banner; without it the page answers 401', async () => {
    const printed = /inspector\s+(\S+)/.exec(banner)?.[1];
    expect(printed).toBe(ready.inspectorUrl);
    const anonymous = await page.goto(`${ready.baseUrl}/_sandbox/inspector/`);
    expect(anonymous?.status()).toBe(401);
    await page.goto(printed!);
    expect(page.url()).toBe(`${ready.baseUrl}/_sandbox/inspector/`);
    await page.waitForSelector('#live.on');
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({
      name: expect.stringMatching(/^ncs_inspector_[0-9a-f]{12}$/),
      path: '/_sandbox/inspector',
      httpOnly: true,
      sameSite: 'Strict',
    });
    // The session secret came in the fragment and left the address bar; the cookie alone opens nothing.
    const withoutSecret = await page.evaluate(async () => (await fetch('/_sandbox/inspector/api/overview')).status);
    expect(withoutSecret).toBe(401);
    // The page's login is no key to the API: it still refuses browser credentials.
    const fromPage = await page.evaluate(async (base) => {
      const r = await fetch(`${base}/api/public/v1/connections`, {
        method: 'POST',
        headers: { authorization: 'Bearer x', 'x-service-tenant': 't' },
      });
      return r.status;
    }, ready.baseUrl);
    expect(fromPage).toBe(403);
  });

  it('shows a call in the journal live, within a second, and opens it redacted', async () => {
    const started = Date.now();
    expect((await api('/api/public/v1/connectors')).status).toBe(200);
    const row = page.locator('#journal-rows tr', { hasText: '/api/public/v1/connectors' }).first();
    await row.waitFor({ timeout: 1000 });
    expect(Date.now() - started).toBeLessThan(1000);
    await row.click();
    const detail = page.locator('#journal-detail');
    await detail.getByText('Copy as curl').waitFor();
    const text = await detail.innerText();
    expect(text).toContain('authorization');
    expect(text).toContain('Bearer [redacted]');
    expect(text).not.toContain(ready.token);
    expect(text).toContain('"$NCS_TOKEN"');
    if (SHOTS) {
      // A few more calls of every kind, so the picture shows a realistic journal.
      await api('/api/public/v1/providers');
      await api('/api/public/v1/connections');
      await api('/api/public/v1/connections/con_missing');
      await api('/api/public/v1/connections', { method: 'POST', body: '{}' });
      await page.locator('#journal-rows tr', { hasText: 'con_missing' }).waitFor();
      await row.click();
      await page.evaluate(() => window.scrollTo(0, 0));
    }
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'inspector-journal.png') });
  });

  it('shows a failed webhook delivery with its attempts and redelivers it from the page', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const created = await api('/api/public/v1/webhooks', {
      method: 'POST',
      headers: { 'idempotency-key': `inspector-e2e-${Date.now()}` },
      body: JSON.stringify({ url, events: ['order.created'] }),
    });
    expect(created.ok).toBe(true);
    const trigger = await fetch(`${ready.baseUrl}/_sandbox/trigger`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ready.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'order.created', tenant: ready.tenant }),
    });
    expect(trigger.status).toBe(200);
    await page.click('nav a[data-view="webhooks"]');
    const delivery = page.locator('section.delivery').first();
    await delivery.locator('tr.attempt', { hasText: '500' }).first().waitFor({ timeout: 5000 });
    expect(await delivery.innerText()).toMatch(/http_500/);
    expect(await delivery.innerText()).toMatch(/NCS-Signature: t=\d+,v1=[0-9a-f]{64}/);
    receiverFails = false;
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'inspector-webhooks.png'), fullPage: true });
    await delivery.getByRole('button', { name: 'Redeliver' }).click();
    // A redelivery starts sequence 2: only the button can have made it.
    await page.locator('section.delivery tr.attempt', { hasText: '(seq 2)' }).first().waitFor({ timeout: 5000 });
    await page.locator('section.delivery .badge.succeeded').first().waitFor({ timeout: 5000 });
  });

  it('pauses a connection from the page and shows its state history', async () => {
    const created = await api('/api/public/v1/connections', {
      method: 'POST',
      headers: { 'idempotency-key': `inspector-e2e-con-${Date.now()}` },
      body: JSON.stringify({
        connectorId: 'tillcraft-pos-cloud',
        environment: 'sandbox',
        scopeLabel: 'Harbour Kitchens Quay Street',
        capabilities: ['orders.read'],
      }),
    });
    expect(created.ok).toBe(true);
    const { id } = (await created.json()).data;
    // A new connection is pending for 2 s on the simulator clock; only an active one can be paused.
    // Moving the clock by that much activates it at once (instead of waiting 2 s of real time).
    expect((await control('/clock/advance', { seconds: 2 })).status).toBe(200);
    await expect
      .poll(async () => (await (await api(`/api/public/v1/connections/${id}`)).json()).data.state, { timeout: 5000 })
      .toBe('active');
    await page.click('nav a[data-view="connections"]');
    const card = page.locator('article.connection', { hasText: id });
    await card.getByRole('button', { name: 'pause' }).click();
    // A wait for the page, not a timing target: a loaded CI worker took over 3 s once (session 30, run O).
    await card.locator('.badge.paused').waitFor({ timeout: 10_000 });
    expect(await card.locator('.history').innerText()).toMatch(
      /connection\.\S+ by harbour-backend[\s\S]*by sandbox-admin/,
    );
  });

  it('verifies the audit chain in the page', async () => {
    await page.click('nav a[data-view="audit"]');
    const verdict = page.locator('#audit-verdict');
    await verdict.waitFor();
    expect(await verdict.innerText()).toMatch(/^Chain verified in this browser: \d+ entries/);
  });

  // Generous waits: on a loaded CI machine the page's first render of a view can take seconds.
  it('keeps the view just opened when the answer for the view before arrives late', { timeout: 45_000 }, async () => {
    // The audit view's answer held back until the controls view is open (a busy machine, a slow reload).
    let release = (): void => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const audit = /\/_sandbox\/inspector\/api\/audit\?/;
    let heldCalls = 0;
    await page.route(audit, async (route) => {
      heldCalls++;
      await held;
      await route.continue();
    });
    // From another view, so opening the audit view asks for it (the test before left the page on it).
    await page.click('nav a[data-view="connections"]', { timeout: 15_000 });
    await page.click('nav a[data-view="audit"]', { timeout: 15_000 });
    await expect.poll(() => heldCalls, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.click('nav a[data-view="controls"]', { timeout: 15_000 });
    await page.getByRole('button', { name: 'Advance clock' }).waitFor({ timeout: 15_000 });
    const answered = page.waitForResponse(audit, { timeout: 15_000 });
    release();
    await answered;
    await page.unroute(audit);
    // The late audit answer is drawn nowhere: the controls stay.
    await new Promise((r) => setTimeout(r, 300));
    expect(await page.getByRole('button', { name: 'Advance clock' }).count()).toBe(1);
  });

  it('moves the simulator clock from the controls view', { timeout: 45_000 }, async () => {
    // The clock may have moved before (the connection test above): the button adds one hour to it.
    const before: number = (await (await control('/clock')).json()).data.offsetMs;
    await page.click('nav a[data-view="controls"]', { timeout: 15_000 });
    await page.getByRole('button', { name: 'Advance clock' }).click({ timeout: 15_000 });
    await page.getByText(`${(before + 3_600_000) / 1000} s`).waitFor({ timeout: 10_000 });
    const clock = await (await control('/clock')).json();
    expect(clock.data.offsetMs).toBe(before + 3_600_000);
  });

  it('opens the HTML conformance report with the failure visible', async () => {
    const out = join(dir, 'report');
    const run = await ncs([
      'conformance',
      'run',
      '--base-url',
      ready.baseUrl,
      '--tenant',
      ready.tenant,
      '--token',
      ready.token,
      '--grep',
      'envelope\\.response-schema',
      '--reporter',
      'html',
      '--output',
      out,
    ]);
    expect(run.status).toBe(1);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${join(out, 'conformance.html')}`);
    await page.getByText('FAIL: ').first().waitFor();
    const failure = page.locator('article.check.fail').first();
    expect(await failure.innerText()).toMatch(/expected[\s\S]*observed[\s\S]*reproduce[\s\S]*curl /);
    expect(await failure.innerText()).toContain('envelope.response-schema');
    expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'conformance-report.png'), fullPage: true });
  }, 30_000);
});

if (SHOTS) mkdirSync(SHOTS, { recursive: true });
