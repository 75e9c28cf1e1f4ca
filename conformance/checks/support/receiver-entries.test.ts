import { describe, expect, it } from 'vitest';
import { namingOthers } from './receiver-entries.ts';

const others = { urls: new Set(['http://127.0.0.1:9/kit-other-1']), ids: new Set(['wh_2', '7']) };

describe('namingOthers (webhooks.delivery-log: a receiver lists its own deliveries)', () => {
  it("finds an entry naming another receiver's url anywhere, or its id in a field named for a receiver", () => {
    const byUrl = { id: 'd1', target: { url: 'http://127.0.0.1:9/kit-other-1' } };
    const byId = { id: 'd2', receiver_id: 'wh_2' };
    const byNumber = { id: 'd3', webhookId: 7 };
    expect(namingOthers([byUrl, byId, byNumber, { id: 'd4', webhookId: 'wh_1' }], others)).toEqual([
      byUrl,
      byId,
      byNumber,
    ]);
  });
  it('leaves ids in fields not named for a receiver alone (an attempt number, a status)', () => {
    expect(namingOthers([{ id: '7', attempt: 7, status: 'wh_2' }], others)).toEqual([]);
  });
});
