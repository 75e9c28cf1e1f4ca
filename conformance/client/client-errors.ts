// How a request of the kit's client can end without an answer: neither is a verdict about the contract.

/**
 * The request was cut short by the caller's signal (the run stopped early), not by the target: neither a
 * verdict nor a connection problem. Also thrown for a request asked for after the signal fired.
 */
export class RequestCancelled extends Error {
  readonly url: string;
  constructor(url: string) {
    super(`request to ${url} cancelled: the run stopped`);
    this.name = 'RequestCancelled';
    this.url = url;
  }
}

/** The target could not be reached or did not answer in time: not a verdict about the contract. */
export class ConnectionError extends Error {
  readonly url: string;
  constructor(url: string, message: string) {
    super(message);
    this.name = 'ConnectionError';
    this.url = url;
  }
}

/** The low-level reason of a failed fetch (its cause's code or message), for a ConnectionError's text. */
export function describeCause(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err);
}
