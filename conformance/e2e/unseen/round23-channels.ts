import { createHmac } from 'node:crypto';
import type { UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 23 of the unseen violations, part 3: the stream, webhook signatures and the audit log — stream
 * numbers wrapping after five, an HMAC-SHA-512 cut to 64 hex digits, a MAC over a body with a byte
 * order mark in front, and an audit proof whose chain head lags one entry behind the page it proves.
 */
type Rec = Record<string, any>;

export const ROUND23_CHANNELS: UnseenViolation[] = [
  {
    name: 'stream-ids-wrap-after-five',
    statement: 'Status stream: Every message carries a consecutive number and arrives exactly once.',
    stream(_c, lines) {
      // The message number is kept in a ring buffer index (size 5) and the index is written as the id:
      // 1..5, then 1 again.
      return lines.replace(
        /^id:( ?)(\d+)[ \t]*$/gm,
        (_m, sp: string, n: string) => `id:${sp}${((Number(n) - 1) % 5) + 1}`,
      );
    },
  },
  {
    name: 'signature-hmac-sha512-cut-to-64-hex',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key ... written as lowercase hex',
    sign(body, secret, t) {
      // The signer's algorithm comes from a shared crypto config whose default is SHA-512; the header
      // field was sized for 64 hex digits, so the longer MAC is cut to fit and looks like SHA-256.
      const mac = createHmac('sha512', secret).update(`${t}.${body}`, 'utf8').digest('hex').slice(0, 64);
      return `t=${t},v1=${mac}`;
    },
  },
  {
    name: 'signature-over-bom-prefixed-body',
    statement: 'Webhooks: The signature is an HMAC ... over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // The body is signed from the file the delivery was spooled to, written with a UTF-8 byte order mark;
      // the request itself is sent from memory without it.
      const mac = createHmac('sha256', secret).update(`${t}.\uFEFF${body}`, 'utf8').digest('hex');
      return `t=${t},v1=${mac}`;
    },
  },
  {
    name: 'audit-chain-head-one-behind',
    statement: 'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity',
    answer(c, a) {
      // The chain head is read from a replica that trails the primary by one write: the proof names
      // the entry before the newest as the head while the page (and headHash) already holds the newest.
      if (c.method !== 'GET' || c.path !== P('/audit-log') || a.status !== 200) return;
      const entries = a.json.data?.entries as Rec[] | undefined;
      const head = a.json.data?.proof?.chainHead as Rec | undefined;
      if (!Array.isArray(entries) || entries.length < 2 || !head || typeof head.seq !== 'number') return;
      const prev = entries.find((e) => e?.seq === head.seq - 1);
      const newest = entries.find((e) => e?.seq === head.seq);
      if (!prev || !newest) return;
      head.seq = prev.seq;
      head.hash = prev.hash;
    },
  },
];
