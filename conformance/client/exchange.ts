// One request and its answer as the kit records it; its own module so the HTTP client and the SSE
// reader (which the client opens) both use it without importing each other.

/** One request and its answer, kept as evidence. Request headers hold secrets: redact before printing. */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  /** Response headers, names lower-cased. */
  headers: Record<string, string>;
  /** Body text ('' when not read, e.g. an event stream). */
  text: string;
  /** Parsed body, undefined when it is not JSON. */
  json: unknown;
  /** meta.requestId of the body, else the X-Request-Id header. */
  requestId?: string;
  durationMs: number;
  /**
   * When the call began (epoch ms, before any pause the client's pacing imposed): with durationMs, whether two
   * calls overlapped. Absent on exchanges made before it was recorded (read as "may have overlapped").
   */
  startedAt?: number;
  /** How many attempts the retry policy made (1 without retries). */
  attempts: number;
  /** The body was larger than the kit reads: `text` holds its first `bodyCappedAt` bytes. */
  bodyCappedAt?: number;
  /** The event stream sent more than the kit reads: it stopped after this many bytes. */
  streamCappedAt?: number;
  /** Blocks of the event stream without data whose `id:` changed a standard client's last event ID. */
  idOnlyBlocks?: IdOnlyBlock[];
}

/** A block of an event stream with an `id:` and no data: what it set a standard client's last event ID to. */
export interface IdOnlyBlock {
  /** The last event ID before it (the last message's, or the Last-Event-ID sent), if there was one. */
  before?: string;
  id: string;
  /** Messages read before it. */
  afterMessages: number;
}
