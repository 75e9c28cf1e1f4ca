import { ERROR_TABLE, type ErrorCode } from '../contract/errors.ts';

/**
 * Thrown anywhere in the pipeline to answer with the failure envelope.
 * @example throw new ApiError('not_found', { detail: 'No connector named pos-x.' });
 */
/** What a thrower may say beyond the code (the table gives status, message and hint by default). */
export interface ApiErrorOptions {
  message?: string;
  detail?: string;
  hint?: string;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string | undefined;
  readonly hint: string;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, opts: ApiErrorOptions = {}) {
    const entry = ERROR_TABLE[code];
    // An answer, not a fault: no stack trace is ever shown or logged for it, and capturing one through
    // the pipeline's nested steps cost more than the rest of a refused request's handling.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(opts.message ?? entry.message);
    Error.stackTraceLimit = limit;
    this.code = code;
    this.status = entry.status;
    this.detail = opts.detail;
    this.hint = opts.hint ?? entry.hint;
    this.headers = opts.headers ?? {};
  }
}
