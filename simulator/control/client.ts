import { readReadyFile } from '../contract/ready-file.ts';
import type { z } from 'zod';
import type { AddFaultBody } from './routes.ts';
import { CONTROL_PREFIX } from './routes.ts';
import { reachingFetch } from '../lib/reach.ts';
import type { ClientReport } from '../client-rules/index.ts';
import type { ReceiverCheckResult } from '../webhooks/receiver-check.ts';
import { must } from '../lib/invariant.ts';

export interface ControlClientOptions {
  baseUrl: string;
  adminToken: string;
  fetch?: typeof fetch;
}

/** Reads baseUrl and adminToken from a `ncs serve --ready-file` file (checked against its schema). */
export function controlOptionsFromReadyFile(path: string): ControlClientOptions {
  const info = readReadyFile(path);
  return { baseUrl: info.baseUrl, adminToken: info.adminToken };
}

/** Thrown for a failure envelope from the control plane. */
export class ControlRequestError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * A client of a running simulator's control plane (what `ncs sandbox ...` uses).
 * @example const ctl = createControlClient({ baseUrl: 'http://127.0.0.1:4010', adminToken }); await ctl.pause('con_...');
 */
export function createControlClient(opts: ControlClientOptions) {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const doFetch = reachingFetch(opts.fetch ?? globalThis.fetch, base);
  async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await doFetch(`${base}${CONTROL_PREFIX}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${opts.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json().catch(() => undefined)) as
      | { ok?: boolean; data?: T; error?: { code: string; message: string; detail?: string } }
      | undefined;
    if (!json?.ok) {
      const e = json?.error;
      throw new ControlRequestError(
        res.status,
        e?.code ?? 'unknown',
        e ? `${e.code}: ${e.message}${e.detail ? ` ${e.detail}` : ''}` : `HTTP ${res.status}`,
      );
    }
    return json.data as T;
  }
  const setState = (id: string, state: string) =>
    call('POST', `/connections/${encodeURIComponent(id)}/state`, { state });
  return {
    summary: () => call('GET', ''),
    reset: () => call('POST', '/reset'),
    pause: (id: string) => setState(id, 'paused'),
    resume: (id: string) => setState(id, 'active'),
    revoke: (id: string) => setState(id, 'revoked'),
    clock: () => call('GET', '/clock'),
    advanceClock: (seconds: number) => call('POST', '/clock/advance', { seconds }),
    addFault: (fault: z.input<typeof AddFaultBody>) => call('POST', '/faults', fault),
    listFaults: () => call('GET', '/faults'),
    clearFaults: () => call('DELETE', '/faults'),
    setStatus: (status: string, message?: string) =>
      call('POST', '/status', { status, ...(message ? { message } : {}) }),
    trigger: (event: string, tenant: string) => call('POST', '/trigger', { event, tenant }),
    /** A fresh one-time inspector login link (`ncs inspector`); the previous unused link stops working. */
    inspectorLogin: () => call<{ url: string }>('POST', '/inspector-login'),
    /** The client verdicts (GET /_sandbox/client-report), optionally for one client or tenant. */
    clientReport: (filter: { client?: string; tenant?: string } = {}) => {
      const q = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as [string, string][]).toString();
      return call<ClientReport>('GET', `/client-report${q ? `?${q}` : ''}`);
    },
    receiverCheck: (webhookId: string, opts: { tenant?: string; timeoutMs?: number } = {}) =>
      call<ReceiverCheckResult>('POST', '/receiver-check', { webhookId, ...opts }),
    call,
  };
}
export type ControlClient = ReturnType<typeof createControlClient>;

const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** Parses a duration such as 90s, 15m, 2h, 1d or a plain number of seconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!m) throw new Error(`not a duration: ${text} (use e.g. 90s, 15m, 2h, 1d)`);
  return Number(m[1]) * must(UNITS[m[2] ?? 's'], 'the duration pattern only admits units UNITS knows');
}
