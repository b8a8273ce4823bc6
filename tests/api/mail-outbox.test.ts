/**
 * Order emails through the transactional outbox, delivered over real SMTP to a server the test
 * starts (tests/api/support/smtp-sink.ts). Time only moves through the injected clock.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { VIP_RECIPIENT } from '../../src/server/db/demo-data.ts';
import { silentLogger } from '../../src/server/http/context.ts';
import { orderNumber } from '../../src/server/orders/reshape.ts';
import { enqueueMail } from '../../src/server/mail/outbox.ts';
import { createOutboxWorker, DEFAULT_LEASE_MS, type OutboxWorker } from '../../src/server/mail/outbox-worker.ts';
import { createSmtpTransport, type MailTransport, type OutgoingMail } from '../../src/server/mail/transport.ts';
import { pool, report, split } from './support/figures.ts';
import { cartIdOf, finalize, giftCard, pay, readyCart, S } from './support/shopper.ts';
import { SmtpSink } from './support/smtp-sink.ts';
import { ADDRESS, bundleId, startTestApp, variantId, type TestApp } from './support/test-app.ts';

const MAIL_FROM = 'Acme Mail <orders@acme.example>';
let sink: SmtpSink;
let api: TestApp;

beforeAll(async () => {
  sink = await new SmtpSink().start();
  api = await startTestApp({ SMTP_URL: sink.url, MAIL_FROM });
});

afterAll(async () => {
  await api?.close();
  await sink?.stop();
});

beforeEach(async () => {
  // Every test starts with an empty outbox, a listening server that accepts, and the real time.
  await api.outbox.deliverDue();
  await api.db.deleteFrom('mail_outbox').execute();
  if (!sink.listening) await sink.start();
  sink.mode = { accept: true };
  sink.received.length = 0;
  sink.refused = 0;
  api.clock.offsetMs = 0;
});

const retry = () => ({
  baseSeconds: api.config.MAIL_RETRY_BASE_SECONDS,
  maxSeconds: api.config.MAIL_RETRY_MAX_SECONDS,
  maxAttempts: api.config.MAIL_MAX_ATTEMPTS,
});

/** Another API instance's worker on the same database, delivering through `transport`. */
function otherWorker(transport: MailTransport): OutboxWorker {
  return createOutboxWorker({
    db: api.instanceDb(),
    transport,
    clock: api.clock,
    logger: silentLogger,
    retry: retry(),
  });
}

const smtp = () => createSmtpTransport(sink.url, MAIL_FROM);

const outboxRows = () => api.db.selectFrom('mail_outbox').selectAll().orderBy('id').execute();

/** Moves the injected clock to `at` (never backwards). */
function moveClockTo(at: Date) {
  const ahead = at.getTime() - Date.now();
  if (ahead > api.clock.offsetMs) api.clock.offsetMs = ahead;
}

/** A paid order of a tee, the coffee kit bundle and a gift card; answers the finalize answer's order. */
async function placeOrder() {
  const token = await readyCart(api, await variantId(api.db, 'TEE-M-NAVY'), 2);
  expect(
    (
      await api.call('POST', `${S}/cart/cart_line_items`, {
        token,
        body: { cart_line_item: { bundle_id: await bundleId(api.db, 'coffee-kit'), quantity: 1 } },
      })
    ).status,
  ).toBe(201);
  const card = await giftCard(api, 1000);
  expect(
    (await api.call('POST', `${S}/gift_cards/apply`, { token, body: { gift_card: { code: card.code } } })).status,
  ).toBe(200);
  const intent = await pay(api, token);
  const answer = await finalize(api, token, intent);
  expect(answer.status, answer.text).toBe(200);
  return { order: answer.body.orderDetails, token, intent, card };
}

describe('order confirmation over SMTP', () => {
  test('one order sends exactly one confirmation, multipart/alternative, with the order in both parts', async () => {
    const { order, token, intent, card } = await placeOrder();
    const [mail] = await sink.waitFor(1);
    // The shopper's retry and the worker's next rounds send nothing more.
    expect((await finalize(api, token, intent)).status).toBe(200);
    await api.outbox.deliverDue();
    moveClockTo(new Date(Date.now() + 86_400_000));
    await api.outbox.deliverDue();
    expect(sink.received).toHaveLength(1);

    const rows = await outboxRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'order_receipt',
      dedupe_key: `order-receipt:${order.id}`,
      attempts: 1,
      failed_at: null,
    });
    expect(rows[0]!.sent_at).not.toBeNull();

    expect(mail!.messageId).toBe(rows[0]!.message_id);
    expect(mail!.messageId).toMatch(/^<[0-9a-f-]{36}@acme\.example>$/);
    expect(mail!.subject).toBe(`Your Acme Supply Co. order ${order.number}`);
    expect(mail!.from?.value).toEqual([{ name: 'Acme Mail', address: 'orders@acme.example' }]);
    expect(mail!.to && !Array.isArray(mail!.to) ? mail!.to.text : '').toBe(ADDRESS.email);
    expect(mail!.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    // acme has its own domain (shop.acme.test): the link opens the order there, unprefixed.
    const orderUrl = `http://shop.acme.test/order/${order.id}`;
    const text = mail!.text ?? '';
    const html = typeof mail!.html === 'string' ? mail!.html : '';
    for (const part of [text, html]) {
      expect(part).toContain('Acme Supply Co.');
      expect(part).toContain(order.number);
      expect(part).toContain('2 × Classic Cotton Tee (M / Navy)');
      expect(part).toContain('1 × Morning Coffee Kit');
      expect(part).toContain('2 × Stoneware Mug');
      expect(part).toContain(`Gift card ${card.code}`);
      expect(part).toContain(`$${order.total}`);
      expect(part).toContain(ADDRESS.address_line1);
      expect(part).toContain(orderUrl);
    }
    expect(html).toContain(`href="${orderUrl}"`);
  });

  test('the sign-in link goes through the same outbox and reaches the SMTP server', async () => {
    expect(
      (await api.call('POST', '/store_front/vip/allowed_users/verify', { body: { email: VIP_RECIPIENT.email } }))
        .status,
    ).toBe(202);
    const [mail] = await sink.waitFor(1);
    expect(mail!.subject).toBe('Your sign-in link for VIP Reserve');
    expect(mail!.text).toContain(`http://shop.test/vip?uuid=${VIP_RECIPIENT.uuid}`);
    expect(mail!.html).toBe(false);
    await api.outbox.deliverDue();
    expect((await outboxRows()).map((r) => [r.kind, r.to_address, r.sent_at !== null])).toEqual([
      ['sign_in_link', VIP_RECIPIENT.email, true],
    ]);
  });
});

describe('SMTP down', () => {
  test('an hour without SMTP (nothing listening, then 451 answers): retried with exponential backoff, then delivered once', async () => {
    await sink.stop();
    const { order } = await placeOrder();
    await api.outbox.deliverDue();
    const firstTry = (await outboxRows())[0]!.created_at.getTime();

    // Each failed attempt schedules the next; the clock jumps to it. A round a second early must do nothing.
    const dues: number[] = [];
    let early = 0;
    for (;;) {
      const [row] = await outboxRows();
      expect(row!.sent_at).toBeNull();
      expect(row!.attempts).toBe(dues.length + 1);
      const due = row!.next_attempt_at;
      dues.push(due.getTime());
      if (due.getTime() - firstTry > 3_600_000) break;
      // Halfway through the hour the server is back, but answers "try again later".
      if (!sink.listening && due.getTime() - firstTry > 1_800_000) {
        await sink.start();
        sink.mode = { accept: false, code: 451, message: 'Try again later', at: 'DATA' };
      }
      moveClockTo(new Date(due.getTime() - 1000));
      await api.outbox.deliverDue();
      if ((await outboxRows())[0]!.attempts !== row!.attempts) early++;
      moveClockTo(due);
      await api.outbox.deliverDue();
    }
    const delays = dues.map((due, i) => Math.round((due - (i === 0 ? firstTry : dues[i - 1]!)) / 1000));

    sink.mode = { accept: true };
    moveClockTo(new Date(dues.at(-1)!));
    await api.outbox.deliverDue();
    const [mail] = await sink.waitFor(1);
    moveClockTo(new Date(dues.at(-1)! + 86_400_000));
    await api.outbox.deliverDue();
    const [sent] = await outboxRows();

    report('mail-smtp-outage', {
      outage_s: Math.round((dues.at(-1)! - firstTry) / 1000),
      failed_attempts: dues.length,
      delays_s: delays.join(','),
      refused_451: sink.refused,
      early_attempts: early,
      received: sink.received.length,
      violations: early + Math.abs(sink.received.length - 1),
    });
    expect(delays).toEqual([30, 60, 120, 240, 480, 900, 900, 900]);
    expect(early).toBe(0);
    expect(sink.refused).toBe(2);
    expect(sink.received).toHaveLength(1);
    expect(mail!.subject).toContain(order.number);
    expect(sent).toMatchObject({ attempts: dues.length + 1, failed_at: null });
    expect(sent!.sent_at).not.toBeNull();
  });
});

/** `count` mails written straight into the outbox (no route wakes a worker). */
async function enqueueMails(count: number, prefix: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    await enqueueMail(
      api.db,
      {
        kind: 'order_receipt',
        dedupeKey: `${prefix}-${i}`,
        to: `shopper${i}@example.com`,
        subject: `${prefix} ${i}`,
        text: `Body ${i}`,
        html: `<p>Body ${i}</p>`,
      },
      { mailFrom: MAIL_FROM, now: api.clock.now() },
    );
  }
}

const distinct = (values: readonly unknown[]) => new Set(values).size;

describe('restarts and several instances', () => {
  test('a worker that dies mid-delivery loses nothing and sends nothing twice: a new worker takes its mails once the lease ends', async () => {
    await enqueueMails(6, 'restart');
    const real = smtp();
    let sent = 0;
    let hung: ((error: Error) => void) | undefined;
    let entered!: () => void;
    const hangs = new Promise<void>((resolve) => (entered = resolve));
    // The first instance delivers two mails, then its process stops answering in the middle of the third.
    const dying: MailTransport = {
      async deliver(mail: OutgoingMail) {
        if (sent === 2) {
          entered();
          return new Promise<void>((_, reject) => (hung = reject));
        }
        await real.deliver(mail);
        sent++;
      },
      close() {},
    };
    const first = otherWorker(dying);
    const firstRound = first.deliverDue();
    await hangs;
    expect(sink.received).toHaveLength(2);

    // The restarted instance: the mails the first one still holds are not taken while its lease lasts…
    const second = otherWorker(smtp());
    expect(await second.deliverDue()).toEqual({ delivered: 0, retried: 0, failed: 0 });
    // …and are delivered once it has ended.
    api.clock.offsetMs += DEFAULT_LEASE_MS + 1000;
    expect((await second.deliverDue()).delivered).toBe(4);
    await sink.waitFor(6);

    // The stuck delivery fails at last: the first worker must not reschedule it nor send the rest.
    hung!(new Error('socket closed'));
    expect(await firstRound).toEqual({ delivered: 2, retried: 0, failed: 0 });
    await first.stop();
    api.clock.offsetMs += 86_400_000;
    await second.deliverDue();
    await second.stop();

    const rows = await outboxRows();
    const ids = sink.received.map((m) => m.messageId);
    const lost = rows.filter((r) => r.sent_at === null).length;
    report('mail-worker-restart', {
      mails: rows.length,
      received: ids.length,
      duplicates: ids.length - distinct(ids),
      lost,
      violations: ids.length - distinct(ids) + lost,
    });
    expect(ids).toHaveLength(6);
    expect(distinct(ids)).toBe(6);
    expect(new Set(ids)).toEqual(new Set(rows.map((r) => r.message_id)));
    expect(lost).toBe(0);
    expect(rows.every((r) => r.failed_at === null && r.locked_until === null)).toBe(true);
  });

  test('a worker stopped between mails hands the rest back at once: the next one sends them without waiting for the lease', async () => {
    await enqueueMails(4, 'handover');
    const real = smtp();
    const first: OutboxWorker = otherWorker({
      async deliver(mail) {
        await real.deliver(mail);
        // The process is asked to stop (SIGTERM) while it delivers its first mail.
        void first.stop();
      },
      close() {},
    });
    expect((await first.deliverDue()).delivered).toBe(1);
    await first.stop();
    const next = otherWorker(smtp());
    expect((await next.deliverDue()).delivered).toBe(3);
    await next.stop();
    expect(distinct(sink.received.map((m) => m.messageId))).toBe(4);
    expect(sink.received).toHaveLength(4);
  });

  test('four API instances delivering at once send each of 40 mails exactly once', async () => {
    await enqueueMails(40, 'race');
    const workers = Array.from({ length: 4 }, () =>
      createOutboxWorker({
        db: api.instanceDb(),
        transport: smtp(),
        clock: api.clock,
        logger: silentLogger,
        retry: retry(),
        batchSize: 3,
      }),
    );
    const rounds = await Promise.all(workers.map((w) => w.deliverDue()));
    await Promise.all(workers.map((w) => w.stop()));
    await sink.waitFor(40);
    const ids = sink.received.map((m) => m.messageId);
    const unsent = (await outboxRows()).filter((r) => r.sent_at === null).length;
    report('mail-claim-race', {
      instances: 4,
      mails: 40,
      received: ids.length,
      per_instance: rounds.map((r) => r.delivered).join('/'),
      duplicates: ids.length - distinct(ids),
      unsent,
      violations: ids.length - distinct(ids) + unsent,
    });
    expect(ids).toHaveLength(40);
    expect(distinct(ids)).toBe(40);
    expect(rounds.reduce((sum, r) => sum + r.delivered, 0)).toBe(40);
    expect(unsent).toBe(0);
  });
});

describe('what exactly once can mean at the SMTP boundary', () => {
  test('a mail the server accepted whose acceptance never reached the database is sent again, with the same Message-ID', async () => {
    await enqueueMails(1, 'lost-ack');
    const real = smtp();
    let calls = 0;
    const worker = otherWorker({
      async deliver(mail) {
        await real.deliver(mail);
        // The 250 reply is lost (the connection drops after the server took the message).
        if (++calls === 1) throw new Error('connection closed after DATA');
      },
      close() {},
    });
    expect(await worker.deliverDue()).toEqual({ delivered: 0, retried: 1, failed: 0 });
    api.clock.offsetMs += 31_000;
    expect(await worker.deliverDue()).toEqual({ delivered: 1, retried: 0, failed: 0 });
    await worker.stop();
    const ids = sink.received.map((m) => m.messageId);
    report('mail-lost-acceptance', { received: ids.length, distinct_message_ids: distinct(ids) });
    expect(ids).toHaveLength(2);
    expect(distinct(ids)).toBe(1);
  });
});

describe('giving up', () => {
  test('a recipient the server refuses for good (550) is given up at once, and later mails still go', async () => {
    sink.mode = { accept: false, code: 550, message: 'No such user here', at: 'RCPT TO' };
    await enqueueMails(1, 'refused');
    expect(await api.outbox.deliverDue()).toEqual({ delivered: 0, retried: 0, failed: 1 });
    const [refused] = await outboxRows();
    expect(refused).toMatchObject({ attempts: 1, sent_at: null });
    expect(refused!.failed_at).not.toBeNull();
    expect(refused!.last_error).toContain('No such user here');

    sink.mode = { accept: true };
    await enqueueMails(1, 'accepted');
    expect(await api.outbox.deliverDue()).toEqual({ delivered: 1, retried: 0, failed: 0 });
    api.clock.offsetMs += 86_400_000;
    expect(await api.outbox.deliverDue()).toEqual({ delivered: 0, retried: 0, failed: 0 });
    expect(sink.received.map((m) => m.subject)).toEqual(['accepted 0']);
  });

  test('a mail is given up after MAIL_MAX_ATTEMPTS failed attempts', async () => {
    await sink.stop();
    await enqueueMails(1, 'exhausted');
    const worker = createOutboxWorker({
      db: api.db,
      transport: smtp(),
      clock: api.clock,
      logger: silentLogger,
      retry: { ...retry(), maxAttempts: 3 },
    });
    const outcomes = [];
    for (let i = 0; i < 4; i++) {
      outcomes.push(await worker.deliverDue());
      api.clock.offsetMs += 3_600_000;
    }
    await worker.stop();
    expect(outcomes.map((o) => [o.retried, o.failed])).toEqual([
      [1, 0],
      [1, 0],
      [0, 1],
      [0, 0],
    ]);
    const [row] = await outboxRows();
    expect(row).toMatchObject({ attempts: 3, sent_at: null });
    expect(row!.failed_at).not.toBeNull();
  });
});

describe('concurrent finalizes', () => {
  test('50 concurrent finalizes of one paid cart queue and send one receipt', async () => {
    const token = await readyCart(api, await variantId(api.db, 'TEE-L-NAVY'), 1);
    const intent = await pay(api, token);
    const answers = await pool(50, 50, () => finalize(api, token, intent));
    await sink.waitFor(1);
    await api.outbox.deliverDue();
    api.clock.offsetMs += 86_400_000;
    await api.outbox.deliverDue();
    const orders = await api.db
      .selectFrom('orders')
      .select(['id', 'number'])
      .where('cart_id', '=', await cartIdOf(api, token))
      .execute();
    const receipts = (await outboxRows()).filter((r) => r.kind === 'order_receipt');
    const statuses = answers.map((a) => a.status);
    report('mail-receipt-finalize-race', {
      finalizes: 50,
      answers: split(statuses),
      orders: orders.length,
      receipts_queued: receipts.length,
      received: sink.received.length,
      violations:
        Math.abs(orders.length - 1) +
        Math.abs(receipts.length - 1) +
        Math.abs(sink.received.length - 1) +
        statuses.filter((s) => s >= 500).length,
    });
    expect(statuses.every((s) => s < 500)).toBe(true);
    expect(orders).toHaveLength(1);
    expect(receipts).toHaveLength(1);
    expect(sink.received).toHaveLength(1);
    expect(sink.received[0]!.subject).toBe(`Your Acme Supply Co. order ${orderNumber(orders[0]!.number)}`);
  });
});
