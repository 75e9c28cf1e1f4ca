import { ApiError } from './api-error.ts';
import { matchedRoute, type RequestContext } from './context.ts';
import { failure, writeReply } from './envelope.ts';
import type { Mount } from './mount.ts';
import { compose, type Middleware, type Terminal } from './pipeline.ts';
import { type AnyStep, checkPipeline, runOf } from './step.ts';
import type { PlainResponse } from './types.ts';

/** The kernel's one entry: finds the mount of a path and answers through its steps, handler and error mapping. */
export interface FrontDoor {
  /** The mount owning a path (longest prefix wins), or undefined when no mount owns it. */
  find(path: string): Mount | undefined;
  /** Answers one request; throws only errors the mount's onError does not know. */
  answer(ctx: RequestContext): Promise<PlainResponse>;
}

interface Entry {
  prefix: string;
  mount: Mount;
  run: Terminal;
}

const owns = (prefix: string, path: string) =>
  prefix === '' || (path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === '/'));

/** ApiError -> the failure envelope: the default for mounts answering in the interface's envelopes. */
export const envelopeOnError = (err: unknown, ctx: RequestContext): PlainResponse | undefined =>
  err instanceof ApiError ? failure(ctx, err) : undefined;

export interface FrontDoorOptions {
  /** Prints each step each request passes (NCS_TRACE=1, `ncs serve --trace`); absent, steps run unwrapped. */
  trace?: (line: string) => void;
}

/** A step that first says it runs: `req_… mount step` (only built when tracing). */
function traced(mount: string, step: AnyStep, trace: (line: string) => void): Middleware {
  const run = runOf(step);
  return (ctx, next) => {
    trace(`${ctx.requestId} ${mount} ${step.name}`);
    return run(ctx, next);
  };
}

/**
 * One mount table for every surface, matched by longest prefix. Checked once here: each route of a
 * mount has a handler, each step's requirements are provided by an earlier step (and the handlers'
 * by the pipeline), and no two mounts claim one prefix.
 * @example const door = createFrontDoor([publicMount, controlMount]); const res = await door.answer(ctx);
 */
export function createFrontDoor(mounts: readonly Mount[], opts: FrontDoorOptions = {}): FrontDoor {
  const { trace } = opts;
  const entries: Entry[] = [];
  for (const mount of mounts) {
    const missing = mount.routes.filter((r) => !mount.handlers[r.id]).map((r) => r.id);
    if (missing.length) throw new Error(`${mount.name}: routes without a handler: ${missing.join(', ')}`);
    checkPipeline(mount.name, mount.pipeline, mount.needs ?? ['route']);
    const steps = mount.pipeline.steps.map((s) => (trace ? traced(mount.name, s, trace) : runOf(s)));
    // Not async: compose turns a throw into a rejection, and a handler's promise is passed on as is.
    const run = compose(steps, (ctx) => {
      const handler = mount.handlers[matchedRoute(ctx).id];
      if (!handler) throw new Error('route without a handler'); // refused above
      if (trace) trace(`${ctx.requestId} ${mount.name} handler ${matchedRoute(ctx).id}`);
      return Promise.resolve(handler(ctx));
    });
    for (const prefix of mount.prefixes) {
      const taken = entries.find((e) => e.prefix === prefix);
      if (taken) throw new Error(`${mount.name} and ${taken.mount.name} both mount ${prefix || '/'}`);
      entries.push({ prefix, mount, run });
    }
  }
  entries.sort((a, b) => b.prefix.length - a.prefix.length);
  // A loop, not entries.find(): no closure per request.
  const find = (path: string) => {
    for (const e of entries) if (owns(e.prefix, path)) return e;
    return undefined;
  };
  return {
    find: (path) => find(path)?.mount,
    async answer(ctx) {
      const entry = find(ctx.req.path);
      if (!entry) throw new ApiError('not_found', { detail: `No route ${ctx.req.path}.` });
      const { mount, run } = entry;
      if (trace) trace(`${ctx.requestId} ${ctx.req.method} ${ctx.req.path} -> ${mount.name}`);
      try {
        if (mount.ready) await mount.ready();
        const res = writeReply(ctx, await run(ctx));
        if (trace) trace(`${ctx.requestId} ${mount.name} answered ${res.status}`);
        return res;
      } catch (err) {
        const res = (mount.onError ?? envelopeOnError)(err, ctx);
        if (trace) trace(`${ctx.requestId} ${mount.name} failed: ${res ? res.status : 'unexpected error'}`);
        if (res) return res;
        throw err;
      }
    },
  };
}
