// The objects a node:http answer keeps while it lasts: the call's exchange (client gone? which stream
// sink to tell when the response closes) and a stream's sink. Every open stream keeps one of each, so
// they are plain objects with methods rather than closures.
import type { ServerResponse } from 'node:http';
import type { StreamSink } from '../core/types.ts';

/**
 * One call on a node:http response as the listener follows it: when the client went away before the
 * answer was complete (`at`, the core's `clientGone`), and the stream sink to tell when it closes.
 * One object and one 'close' listener per call, instead of a record, a once() wrapper and a second
 * listener for streams: every open stream keeps them.
 */
export class NodeExchange {
  at = 0;
  /** Set by the client observer: the clock `at` is read from (default real time). */
  clock: (() => number) | undefined = undefined;
  sink: NodeStreamSink | undefined;
  private readonly res: ServerResponse;
  constructor(res: ServerResponse) {
    this.res = res;
  }
  closed(): void {
    if (!this.res.writableFinished) this.at = this.clock ? this.clock() : Date.now();
    this.sink?.closed();
  }
}

/** What the server keeps of its open streams: it stops them all at shutdown. */
export interface OpenStreams {
  add(stream: { stop(): void }): void;
  delete(stream: { stop(): void }): void;
}

/**
 * A stream's sink on a node:http response, and its handle for the server: one object with methods
 * rather than a closure per reaction, since every open stream keeps it.
 */
export class NodeStreamSink implements StreamSink {
  private readonly res: ServerResponse;
  private ended = false;
  stopSource: (() => void) | undefined;
  open: OpenStreams | undefined;
  constructor(res: ServerResponse) {
    this.res = res;
  }
  write(chunk: string): boolean {
    if (this.ended) return false;
    return this.res.write(chunk);
  }
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.res.end();
  }
  onDrain(listener: () => void): void {
    this.res.on('drain', listener);
  }
  /** The server stops the stream (shutdown). */
  stop(): void {
    this.stopSource?.();
    this.end();
  }
  /** The response closed (client gone, or ended). */
  closed(): void {
    this.ended = true;
    this.stopSource?.();
    this.open?.delete(this);
  }
}
