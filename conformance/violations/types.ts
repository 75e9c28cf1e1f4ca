import type { Core, PlainRequest, PlainResponse, SandboxOptions } from '../../simulator/index.ts';

type WebhookOptions = NonNullable<SandboxOptions['webhooks']>;

/**
 * One deliberate break of the interface, for proving that the conformance kit notices it. A
 * violation wraps the core: it may change the request before the core sees it, answer itself,
 * or change the answer.
 */
export interface Violation {
  name: string;
  description: string;
  /** Interface section whose rule it breaks. */
  section: string;
  /**
   * Names of the conformance checks that must fail against a simulator with this violation (and
   * no other check may fail): the self-test asserts exactly this set.
   */
  catches: readonly string[];
  /**
   * Checks that may also fail, depending on the run's interleaving (which message a stream another check
   * opens starts with): allowed beside `catches`, never required.
   */
  mayCatch?: readonly string[];
  /** Which address misbehaves: both (default) or only the alternate base URL. */
  where?: 'both' | 'alt';
  /**
   * How the kit signs in: the run's fixed token (default), or client credentials (the kit asks the token
   * endpoint and can renew its token, as a violation about renewed tokens needs).
   */
  access?: 'token' | 'client-credentials';
  handle(
    req: PlainRequest,
    next: (req: PlainRequest) => Promise<PlainResponse>,
    core: Core,
    /** The base URL the call came to (a violation of one address that must see the other's calls). */
    base: 'main' | 'alt',
  ): Promise<PlainResponse>;
  /**
   * Breaks outgoing webhook deliveries, which no wrapper of the core can reach: dispatcher options
   * (a signer, a fetch) the sandbox hands to its dispatcher.
   */
  webhooks?: Pick<WebhookOptions, 'sign' | 'fetch'>;
}
