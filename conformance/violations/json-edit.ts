import { randomBytes } from 'node:crypto';
import { ERROR_TABLE, type ErrorCode } from '../../simulator/contract/errors.ts';
import { CURRENT_VERSION } from '../../simulator/contract/versions.ts';
import type { PlainRequest, PlainResponse } from '../../simulator/index.ts';

/** A JSON envelope as the violations see it. */
export interface Envelope {
  ok?: boolean;
  data?: Record<string, unknown>;
  error?: { code?: string; message?: string; detail?: string; hint?: string };
  meta?: Record<string, unknown>;
}

/** The answer with its JSON body changed by `edit` (non-JSON answers pass unchanged). */
export function editJson(res: PlainResponse, edit: (body: Envelope) => void): PlainResponse {
  if (res.body === undefined || res.stream) return res;
  let body: Envelope;
  try {
    body = JSON.parse(res.body) as Envelope;
  } catch {
    return res;
  }
  if (typeof body !== 'object' || body === null) return res;
  edit(body);
  return { ...res, body: JSON.stringify(body) };
}

export const errorCodeOf = (res: PlainResponse): string | undefined => {
  if (res.status < 400 || res.body === undefined) return undefined;
  try {
    return (JSON.parse(res.body) as Envelope).error?.code;
  } catch {
    return undefined;
  }
};

/** A failure envelope built outside the pipeline (violations that answer by themselves). */
export function failureOf(code: ErrorCode, detail: string, status: number = ERROR_TABLE[code].status): PlainResponse {
  const requestId = `req_${randomBytes(12).toString('base64url')}`;
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
    body: JSON.stringify({
      ok: false,
      error: { code, message: ERROR_TABLE[code].message, detail, hint: ERROR_TABLE[code].hint },
      meta: { requestId, version: CURRENT_VERSION, at: new Date().toISOString() },
    }),
  };
}

/** The request with one header set (names are lower-case in plain requests). */
export const withHeader = (req: PlainRequest, name: string, value: string): PlainRequest => ({
  ...req,
  headers: { ...req.headers, [name]: value },
});

/** The request's JSON body, if it has one. */
export function jsonBodyOf(req: PlainRequest): Record<string, unknown> | undefined {
  if (!req.body) return undefined;
  try {
    const v = JSON.parse(new TextDecoder().decode(req.body)) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const withJsonBody = (req: PlainRequest, body: unknown): PlainRequest => ({
  ...req,
  body: new TextEncoder().encode(JSON.stringify(body)),
});
