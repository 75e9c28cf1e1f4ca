import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';

/**
 * Round 21, more misbehaving clients (keys, streams, browsers, Service-Version, tokens): each must fail
 * exactly the rules it breaks, with evidence.
 */
export const MISBEHAVING_MORE_21: FaultyClient[] = [
  // "use a new key for each new operation": a Directus Flow (event hook on items.create and items.update)
  // sends `Idempotency-Key: directus-venues-{{$trigger.keys[0]}}`; an edit of the venue's name creates again
  // under the item's key with another scopeLabel.
  {
    does: 'is a Directus Flow keying its create with the item id, so an edit of the venue’s name creates again under that key with another scopeLabel',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'directus-venues-88';
      ok('first', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Directus Deli' }, key));
      await sleeper(t)(20_000);
      const second = await createWith(t, a, { ...CONNECTION, scopeLabel: 'Directus Deli & Bar' }, key);
      if (second.status !== 409) throw new Error(`answered ${second.status}`);
    },
  },
  // "resumes without gaps by sending Last-Event-ID ... (last number read)": an httpx-sse consumer that
  // rewinds its cursor by two "to be safe" after a cut, de-duplicating by id on its side: messages it read
  // are sent again.
  {
    does: 'is an httpx-sse consumer rewinding Last-Event-ID by two after a cut "to be safe" (it de-duplicates by id)',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 4, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 4) });
      const last = ids.at(-1);
      if (last === undefined || ids.length < 4) throw new Error(`read ${ids.length}`);
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: last - 2, idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  // "never sent from a browser": an Airtable scripting extension runs in the user's browser, in an iframe of
  // airtableblocks.com, and fetches the connectors with a token pasted into its settings.
  {
    does: 'is an Airtable scripting extension fetching the connectors from the user’s browser with a token from its settings',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = {
        origin: 'https://block--b7f1c2a9.airtableblocks.com',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'cors',
        'sec-fetch-dest': 'empty',
      };
      await api(t, a, 'GET', '/connectors', { headers });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a Bruno collection whose
  // environment lacks `serviceVersion`, so every request sends the literal `{{serviceVersion}}`.
  {
    does: 'is a Bruno collection run whose environment lacks serviceVersion, sending Service-Version: {{serviceVersion}} on three reads',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/capabilities', '/connections']) {
        await api(t, a, 'GET', path, { version: '{{serviceVersion}}' });
        await sleeper(t)(800);
      }
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a Meltano tap on the Singer SDK whose stream
  // builds a new OAuthAuthenticator per page request, so each page (1 s apart) fetches a fresh 1 h token.
  {
    does: 'is a Meltano tap (Singer SDK) building a new OAuthAuthenticator per page, a fresh 1 h token for each of eight audit-log pages 1 s apart',
    fails: ['auth.token-reused'],
    async run(t) {
      for (let page = 0; page < 8; page++) {
        ok('page', await get(t, auth(t, undefined, 3_600), `/audit-log?limit=${20 + page}`));
        await sleeper(t)(1_000);
      }
    },
  },
  // "request a new access token": a Flowable process stores the token in a process variable at its start; a
  // boundary timer resumes it 2 h later (token of 1 h) and four HTTP tasks send it expired, 10 s apart.
  {
    does: 'is a Flowable process keeping its 1 h token in a process variable, resumed by a 2 h timer, sending it expired on four different reads 10 s apart',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      ok('start', await get(t, a, '/connections'));
      await sleeper(t)(7_200_000);
      for (const path of ['/providers', '/connectors', '/capabilities', '/connections']) {
        await get(t, a, path);
        await sleeper(t)(10_000);
      }
    },
  },
];
