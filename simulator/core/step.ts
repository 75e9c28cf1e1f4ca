import type { RouteDef } from '../contract/route-def.ts';
import type { ApiVersion } from '../contract/versions.ts';
import type { Access, RequestContext } from './context.ts';
import type { Middleware, Next } from './pipeline.ts';
import type { Reply } from './reply.ts';
import type { RouteMatch } from './router.ts';

/**
 * What steps establish about a request, by context member: a step that requires a fact sees that
 * member as set (no `?`, no `!`), a step that provides one sets it. `access` and `idempotencyKey`
 * stay possibly undefined (public routes, reads): providing them means they were checked.
 */
export interface Known {
  version: ApiVersion;
  route: RouteDef;
  match: RouteMatch;
  access: Access | undefined;
  idempotencyKey: string | undefined;
  /** The body, parsed and validated against the route's schema. */
  body: unknown;
}
export type Fact = keyof Known;
/** The request context as a step requiring facts F sees it. */
export type ContextWith<F extends Fact> = RequestContext & Pick<Known, F>;

/**
 * One named step of a mount's pipeline, declaring what it requires of earlier steps and what it
 * provides to later ones. Its `run` sees the context narrowed to its requirements.
 */
export interface Step<R extends Fact = never, P extends Fact = never> {
  readonly name: string;
  readonly requires: readonly R[];
  readonly provides: readonly P[];
  readonly run: (ctx: ContextWith<R>, next: Next) => Promise<Reply>;
}

/** Any step, whatever it requires (its `run` is called with a context the start-up check vouched for). */
export interface AnyStep {
  readonly name: string;
  readonly requires: readonly Fact[];
  readonly provides: readonly Fact[];
  readonly run: (ctx: never, next: Next) => Promise<Reply>;
}

/**
 * Declares a step; requires and provides are inferred as literal facts.
 * @example const auth = defineStep({ name: 'auth', requires: ['route'], provides: ['access'], run: async (ctx, next) => next() });
 */
export function defineStep<const R extends Fact = never, const P extends Fact = never>(
  step: Omit<Step<R, P>, 'requires' | 'provides'> & { requires?: readonly R[]; provides?: readonly P[] },
): Step<R, P> {
  return { name: step.name, requires: step.requires ?? [], provides: step.provides ?? [], run: step.run };
}

type RequiresOf<S> = S extends { requires: readonly (infer R)[] } ? R : never;
type ProvidesOf<S> = S extends { provides: readonly (infer P)[] } ? P : never;

/**
 * The steps in order, each requiring only what earlier ones provide; a step out of order becomes
 * `{ step, missing }`, so `pipeline([...])` fails `tsc` naming the fact that is missing.
 */
export type InOrder<S extends readonly unknown[], Have = never> = S extends readonly [infer H, ...infer T]
  ? readonly [
      [Exclude<RequiresOf<H>, Have>] extends [never] ? H : { step: H; missing: Exclude<RequiresOf<H>, Have> },
      ...InOrder<T, Have | ProvidesOf<H>>,
    ]
  : readonly [];

/** A mount's steps in order, and the facts true of every request before the first step. */
export interface Pipeline {
  readonly steps: readonly AnyStep[];
  readonly given: readonly Fact[];
}

/**
 * A mount's pipeline as data: the steps in order, type-checked here (a reordering that breaks a
 * precondition fails `tsc`) and checked again at start-up by the front door (`checkPipeline`).
 * `given`: facts true before any step (a mount that is not versioned serves the current version).
 * @example pipeline([routeMatchStep(router), adminAuthStep(deps), validateStep(router)], ['version'])
 */
export function pipeline<const S extends readonly AnyStep[], const G extends Fact = never>(
  steps: S & InOrder<S, G>,
  given: readonly G[] = [],
): Pipeline {
  return { steps, given };
}

/**
 * The start-up check: every step's requirements provided by an earlier step, and `needs` (what the
 * handlers rely on) by the whole pipeline. Throws naming the mount, the step and the fact.
 * @example checkPipeline('control-plane', pipeline([routeMatchStep(router)], ['version']), ['route']);
 */
export function checkPipeline(mount: string, { steps, given }: Pipeline, needs: readonly Fact[]): void {
  const have = new Set<Fact>(given);
  for (const step of steps) {
    const missing = step.requires.filter((f) => !have.has(f));
    if (missing.length)
      throw new Error(`${mount}: step ${step.name} requires ${missing.join(', ')}, which no earlier step provides`);
    for (const f of step.provides) have.add(f);
  }
  const missing = needs.filter((f) => !have.has(f));
  if (missing.length) throw new Error(`${mount}: the handlers require ${missing.join(', ')}, which no step provides`);
}

/** A step's run as the composer calls it (after checkPipeline). */
export const runOf = (step: AnyStep): Middleware => step.run as unknown as Middleware;
