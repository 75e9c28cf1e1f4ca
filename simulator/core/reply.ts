import type { PlainResponse } from './types.ts';

/**
 * A JSON answer as a value: the last step of a mount writes it into the success envelope (fresh
 * answers and idempotent replays alike). `json` is `data` already serialised, for answers cached as
 * text (the catalog); the envelope then skips JSON.stringify.
 */
export interface DataReply {
  status: number;
  data: unknown;
  json?: string;
}

/** An answer that is not enveloped: documents (openapi.json/yaml), streams, the inspector's files, OAuth JSON. */
export interface RawReply {
  raw: PlainResponse;
}

/** What handlers and steps answer; failures are thrown as ApiError (or the mount's own error type). */
export type Reply = DataReply | RawReply;

/**
 * A success value for the envelope.
 * @example return ok({ count: 0, connections: [] });
 */
export const ok = (data: unknown, status = 200): DataReply => ({ status, data });

/**
 * A success value whose JSON text is already known (cached with it), written without serialising again.
 * @example return okJson(cached.data, cached.json);
 */
export const okJson = (data: unknown, json: string, status = 200): DataReply => ({ status, data, json });

/**
 * An answer passed through unchanged.
 * @example return raw({ status: 303, headers: { location: '/' } });
 */
export const raw = (res: PlainResponse): RawReply => ({ raw: res });

/** True for answers the envelope step writes. */
export const isDataReply = (r: Reply): r is DataReply => !('raw' in r);
