import { unseenTarget } from '/work/main/conformance/e2e/unseen/proxy.ts';
const t = await unseenTarget();
const { baseUrl, token, tenant } = t.minimal;
const h = { authorization: `Bearer ${token}`, 'x-service-tenant': tenant, 'content-type': 'application/json' };
const show = async (m: string, p: string, body?: unknown, extra: Record<string,string> = {}) => {
  const r = await fetch(baseUrl + '/api/public/v1' + p, { method: m, headers: { ...h, ...extra }, body: body ? JSON.stringify(body) : undefined });
  const txt = await r.text();
  console.log('==', m, p, r.status, JSON.stringify(Object.fromEntries(r.headers)).slice(0, 400));
  console.log(txt.slice(0, 1500));
  return txt;
};
await show('GET', '/capabilities');
await show('GET', '/connectors');
const c = await show('POST', '/connections', { connectorId: 'pos-kassa-pro', environment: 'sandbox', scopeLabel: 'Cafe', capabilities: ['orders.read'] }, { 'idempotency-key': 'abcdefgh-1' });
await show('POST', '/webhooks', { url: 'http://127.0.0.1:9/x', events: ['order.created'] }, { 'idempotency-key': 'abcdefgh-2' });
await show('GET', '/audit-log?limit=5');
await show('POST', '/idempotency-keys', { operation: 'connection.create' });
const r = await fetch(baseUrl + '/api/public/v1/stream?cursor=0', { signal: AbortSignal.timeout(1500) }).catch(e => null);
if (r) { try { const rd = r.body!.getReader(); let s=''; const end = Date.now()+1200; while (Date.now()<end) { const x = await Promise.race([rd.read(), new Promise<any>(res=>setTimeout(()=>res({done:true}),1200))]); if (x.done) break; s += new TextDecoder().decode(x.value);} console.log('STREAM', s.slice(0,800)); } catch(e) { console.log('stream err', String(e)); } }
await t.close();
process.exit(0);
