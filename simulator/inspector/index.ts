import type { ControlPort } from '../control/operations.ts';
import type { Mount } from '../core/mount.ts';
import type { InspectorStores } from './stores.ts';
import { createJournal, type Journal } from './journal.ts';
import { INSPECTOR_PREFIX } from './paths.ts';
import { createSessions } from './session.ts';
import { createInspectorMount } from './mount.ts';

export interface InspectorOptions {
  /** Calls kept in the request journal (newest N; default 500). */
  journalSize?: number;
  /** Bytes of bodies the journal keeps in all (default 16 MiB); the oldest calls' bodies go first. */
  journalBytes?: number;
  /** The one-time login token (default: random). */
  loginToken?: string;
  /** Answer only loopback host names (default true; the server turns it off when it listens elsewhere). */
  loopbackOnly?: boolean;
}

export interface Inspector {
  journal: Journal;
  mount: Mount;
  /** The login URL for a base URL, with the current one-time token. @example inspector.loginUrl('http://127.0.0.1:4010') */
  loginUrl(baseUrl: string): string;
  /** A fresh one-time login URL (the previous token stops working). */
  newLoginUrl(baseUrl: string): string;
  setLoopbackOnly(on: boolean): void;
}

/**
 * The inspector: request journal, login sessions and the /_sandbox/inspector mount.
 * @example const inspector = createInspector({ state, control, signatureHeader: 'x-ncs-signature' }); console.log(inspector.loginUrl(baseUrl));
 */
export function createInspector(
  deps: { state: InspectorStores; control: ControlPort; signatureHeader: string },
  opts: InspectorOptions = {},
): Inspector {
  const journal = createJournal({
    ...(opts.journalSize ? { size: opts.journalSize } : {}),
    ...(opts.journalBytes ? { maxBytes: opts.journalBytes } : {}),
  });
  const sessions = createSessions({ ...(opts.loginToken ? { loginToken: opts.loginToken } : {}) });
  const mountOpts = { ...deps, journal, sessions, loopbackOnly: opts.loopbackOnly ?? true };
  const mount = createInspectorMount(mountOpts);
  return {
    journal,
    mount,
    loginUrl: (baseUrl) => `${baseUrl}${INSPECTOR_PREFIX}/?token=${sessions.loginToken}`,
    newLoginUrl: (baseUrl) => `${baseUrl}${INSPECTOR_PREFIX}/?token=${sessions.newLoginToken()}`,
    setLoopbackOnly(on) {
      mountOpts.loopbackOnly = on;
    },
  };
}

export { INSPECTOR_PREFIX } from './paths.ts';
