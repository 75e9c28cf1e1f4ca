import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../app/sandbox.ts';
import { webhooksView } from './views.ts';

let sandbox: Sandbox;
afterEach(() => sandbox?.state.close());

describe('inspector webhook view', () => {
  it('shows the signature header exactly as the receiver got it, not one recomputed from the sandbox clock', async () => {
    const sent: Array<{ name: string; value: string }> = [];
    const header = 'x-ncs-signature';
    sandbox = createSandbox({
      webhooks: {
        signatureHeader: header,
        fetch: async (_url, init) => {
          sent.push({ name: header, value: new Headers(init?.headers).get(header)! });
          return new Response('ok', { status: 200 });
        },
      },
    });
    // The signed time is real time; the attempt's `at` is sandbox time, an hour ahead.
    sandbox.control.advanceClock(3600);
    const tenant = 'harbour-kitchens';
    await sandbox.state.receivers.create(tenant, { url: 'http://127.0.0.1:9/hook', events: ['order.paid'] });
    await sandbox.control.trigger({ event: 'order.paid', tenant });
    await sandbox.state.dispatcher.settled();
    expect(sent).toHaveLength(1);
    const [view] = await webhooksView(sandbox.state, tenant, header);
    const attempt = view!.deliveries[0]!.attempts[0]!;
    expect(attempt).toMatchObject({ signatureHeader: header, signature: sent[0]!.value });
  });
});
