import type { RouteDef } from '../contract/route-def.ts';
import type { RequestContext } from './context.ts';
import type { Reply } from './reply.ts';
import type { Fact, Pipeline } from './step.ts';
import type { PlainResponse } from './types.ts';

/** A handler as a mount calls it: the route's context in, a value (or raw answer) out; failures thrown. */
export type MountHandler = (ctx: RequestContext) => Reply | Promise<Reply>;

/**
 * One part of the simulator behind the front door, as in Hono's `app.route(prefix, sub)`: the paths it
 * owns, its route table with one handler per route, the steps every request passes before its
 * handler, and how its failures are answered. The interface, the control plane, the OAuth server and
 * the inspector are each one mount; the kernel picks the mount by longest prefix.
 * @example
 * const mount: Mount = { name: 'ping', prefixes: ['/ping'], routes: PING_ROUTES, pipeline: pipeline([routeMatchStep(router)], ['version']),
 *   handlers: { ping: () => ok({ pong: true }) } };
 */
export interface Mount {
  name: string;
  /** Owned paths, matched per segment: '/oauth' owns '/oauth' and '/oauth/token', not '/oauthx'; '' owns every path. */
  prefixes: readonly string[];
  /** The route table; each route needs a handler (refused when mounted, not on the first request). */
  routes: readonly RouteDef[];
  /** The named steps run in order before the handler (`pipeline([...])`); one of them matches the route. */
  pipeline: Pipeline;
  /** What the handlers rely on (checked at start-up against what the steps provide); default ['route']. */
  needs?: readonly Fact[];
  /** By route id. */
  handlers: Readonly<Record<string, MountHandler | undefined>>;
  /** Settles once the mount can answer (routers build their document on first use). */
  ready?: () => Promise<void>;
  /**
   * This mount's failure answer for an error, or undefined for an error it does not know (the kernel
   * then answers 500 internal and reports it). Default: ApiError -> the failure envelope.
   */
  onError?: (err: unknown, ctx: RequestContext) => PlainResponse | undefined;
}
