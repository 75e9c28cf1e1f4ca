// Round 9: a hostile deployment for the conformance kit. A loopback proxy in front of a real simulator
// (so the kit's identity probe and token grant see a genuine interface) that hands chosen paths to an
// attack handler instead; plus a second loopback "other origin" that records whatever reaches it, to see
// whether the kit carries a secret across a redirect. Loopback only.

import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** An attack on one request; return false to let the request through to the simulator. */
export type Attack = (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean | Promise<boolean>;

export interface Hostile {
  url: string;
  /** Requests the proxy saw (method, path). */
  seen: { method: string; path: string }[];
  attack: Attack;
  close(): Promise<void>;
}

const listen = (s: Server) =>
  new Promise<string>((done) =>
    s.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
  );

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((done) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks)));
    req.on('error', () => done(Buffer.concat(chunks)));
  });

/** A proxy to `upstream` whose `attack` may answer any request itself. */
export async function hostileProxy(upstream: string): Promise<Hostile> {
  const up = new URL(upstream);
  const sockets = new Set<import('node:net').Socket>();
  const h: Hostile = {
    url: '',
    seen: [],
    attack: () => false,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    h.seen.push({ method: req.method ?? '', path: req.url ?? '' });
    res.on('error', () => undefined);
    try {
      if (await h.attack(req, res, body)) return;
    } catch {
      if (!res.headersSent) res.writeHead(599);
      res.end();
      return;
    }
    const headers = { ...req.headers, host: up.host };
    const out = request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    out.on('error', () => res.destroy());
    out.end(body);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  h.url = await listen(server);
  return h;
}

/** The upstream's answer to a path, as text (to serve a doctored copy). */
export async function upstreamJson(upstream: string, path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${upstream}${path}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Another loopback origin that answers 200 `{}` and records every request it gets, body included. */
export async function recorder(): Promise<{
  url: string;
  got: { path: string; headers: Record<string, unknown>; body: string }[];
  close(): Promise<void>;
}> {
  const got: { path: string; headers: Record<string, unknown>; body: string }[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    got.push({ path: req.url ?? '', headers: { ...req.headers }, body: body.toString('utf8') });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  const url = await listen(server);
  return { url, got, close: () => new Promise<void>((done) => server.close(() => done())) };
}

export interface ChildRun {
  /** Exit status of the child: the kit's RunResult fields when it finished, else killed. */
  killed: boolean;
  ms: number;
  result?: {
    exitCode: number;
    error?: string;
    notices: string[];
    results: unknown[];
    peakRssMb: number;
    baseRssMb: number;
  };
  stdout: string;
  stderr: string;
}

const CHILD = fileURLToPath(new URL('./attacks-round9-kit-child.ts', import.meta.url));

interface KitWorker {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  answer?: (message: { result?: ChildRun['result']; threw?: string }) => void;
}

let worker: KitWorker | undefined;

/** Resident size of a fresh kit process, and the growth after which its worker is replaced. */
const FRESH_RSS_MB = 130;
const RECYCLE_AFTER_GROWTH_MB = 60;

/**
 * The kit's process for this test file's runs: one child runs them in turn (starting Node and loading the
 * kit took about half a second of CPU per run, some thirty times a suite). A run that overstays its
 * deadline kills it, and the next run starts a fresh one.
 */
function kitWorker(): KitWorker {
  if (worker && worker.child.exitCode === null && worker.child.signalCode === null) return worker;
  const child = spawn(process.execPath, ['--max-old-space-size=512', '--expose-gc', CHILD], {
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const w: KitWorker = { child, stdout: '', stderr: '' };
  child.stdout?.on('data', (c: Buffer) => {
    w.stdout = (w.stdout + c.toString()).slice(-4000);
  });
  child.stderr?.on('data', (c: Buffer) => {
    w.stderr = (w.stderr + c.toString()).slice(-4000);
  });
  child.on('message', (m: { result?: ChildRun['result']; threw?: string }) => w.answer?.(m));
  child.on('exit', () => w.answer?.({}));
  worker = w;
  return w;
}

/** Ends the kit's process of this file (useHostile's afterAll). */
export function closeKitWorker(): void {
  worker?.child.kill('SIGKILL');
  worker = undefined;
}

/**
 * Runs `runConformance(options)` in a child Node with a 512 MB heap and a hard kill after `killMs`: a kit
 * that does not bound its reads or its CPU fails the test without taking the shared machine down.
 */
export function runKitInChild(options: Record<string, unknown>, killMs: number): Promise<ChildRun> {
  const started = Date.now();
  const w = kitWorker();
  if (w.answer) throw new Error('runKitInChild: one run at a time (the runs of a file share one kit process)');
  w.stdout = '';
  w.stderr = '';
  return new Promise((done) => {
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      w.child.kill('SIGKILL');
    }, killMs);
    w.answer = (m) => {
      clearTimeout(timer);
      w.answer = undefined;
      // A run that grew the process leaves its pages committed (RSS does not fall after a collection), and the
      // next run's growth would then hide inside them: such a worker is replaced, so every run is measured
      // from a resident size near a fresh process's.
      if (killed || !m.result || m.result.peakRssMb > FRESH_RSS_MB + RECYCLE_AFTER_GROWTH_MB) closeKitWorkerIf(w);
      done({
        killed,
        ms: Date.now() - started,
        stdout: m.threw ? `THREW ${m.threw}\n${w.stdout}` : w.stdout,
        stderr: w.stderr,
        ...(m.result ? { result: m.result } : {}),
      });
    };
    w.child.send({ options });
  });
}

function closeKitWorkerIf(w: KitWorker) {
  w.child.kill('SIGKILL');
  if (worker === w) worker = undefined;
}
