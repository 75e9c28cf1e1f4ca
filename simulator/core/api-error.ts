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
    super(opts.message ?? entry.message);
    this.code = code;
    this.status = entry.status;
    this.detail = opts.detail;
    this.hint = opts.hint ?? entry.hint;
    this.headers = opts.headers ?? {};
  }
}
