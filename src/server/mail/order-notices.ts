/**
 * The mails that follow an order's confirmation (docs/decisions/198-console-orders.md): it was
 * shipped (carrier and tracking number), or the store gave money back. Same frame as the
 * confirmation (order-receipt.ts); written to the outbox in the transaction of the change.
 */
import { createElement as h } from 'react';
import type { Kysely } from 'kysely';
import { formatCurrency } from '../../lib/money.ts';
import type { Config } from '../config.ts';
import type { Database, OrderRow } from '../db/schema.ts';
import type { Clock } from '../http/context.ts';
import { orderNumber } from '../orders/reshape.ts';
import { amountsTable, orderMailHtml, orderPageUrl, type ReceiptStore, type RenderedMail } from './order-receipt.ts';
import { enqueueMail, type MailKind } from './outbox.ts';

type NoticeDeps = { config: Config; clock: Clock };

/** One notice: a heading, a sentence, and facts as label and value rows. */
type Notice = {
  kind: MailKind;
  dedupeKey: string;
  subject: string;
  heading: string;
  sentence: string;
  facts: { label: string; value: string }[];
};

const WIDTH = 64;

function renderNotice(store: ReceiptStore, order: OrderRow, notice: Notice, siteUrl: string): RenderedMail {
  const orderUrl = orderPageUrl(store, order.id, siteUrl);
  const text = [
    notice.heading,
    '',
    `${store.title}: order ${orderNumber(order.number)}`,
    '',
    notice.sentence,
    '',
    ...notice.facts.map((f) => `  ${f.label.padEnd(WIDTH - f.value.length - 3)} ${f.value}`),
    '',
    `View your order: ${orderUrl}`,
    '',
  ].join('\n');
  const html = orderMailHtml({
    subject: notice.subject,
    storeTitle: store.title,
    heading: notice.heading,
    orderUrl,
    rows: [
      h('p', { style: { margin: '0 0 16px' } }, notice.sentence),
      amountsTable(notice.facts.map((f) => ({ label: f.label, value: f.value }))),
    ],
  });
  return { subject: notice.subject, text, html };
}

async function queueNotice(
  db: Kysely<Database>,
  store: ReceiptStore,
  order: OrderRow,
  notice: Notice,
  deps: NoticeDeps,
) {
  const mail = renderNotice(store, order, notice, deps.config.PUBLIC_SITE_URL);
  await enqueueMail(
    db,
    { kind: notice.kind, dedupeKey: notice.dedupeKey, to: order.details.address.email, ...mail },
    { mailFrom: deps.config.MAIL_FROM, now: deps.clock.now() },
  );
}

/** "Your order has shipped", with the carrier and tracking number; once per order. */
export function queueShippedNotice(db: Kysely<Database>, store: ReceiptStore, order: OrderRow, deps: NoticeDeps) {
  const number = orderNumber(order.number);
  return queueNotice(
    db,
    store,
    order,
    {
      kind: 'order_shipped',
      dedupeKey: `order-shipped:${order.id}`,
      subject: `Your ${store.title} order ${number} has shipped`,
      heading: 'Your order is on its way',
      sentence: `Order ${number} left ${store.title}.`,
      facts: [
        { label: 'Carrier', value: order.carrier ?? '' },
        { label: 'Tracking number', value: order.tracking_number ?? '' },
      ],
    },
    deps,
  );
}

/** "We refunded you", with this refund's amount and the order's total refunded; once per refund. */
export function queueRefundNotice(
  db: Kysely<Database>,
  store: ReceiptStore,
  order: OrderRow,
  refund: { id: number; amountCents: number; cardCents: number; settledTotalCents: number },
  deps: NoticeDeps,
) {
  const number = orderNumber(order.number);
  const giftCents = refund.amountCents - refund.cardCents;
  return queueNotice(
    db,
    store,
    order,
    {
      kind: 'order_refund',
      dedupeKey: `order-refund:${refund.id}`,
      subject: `A refund of ${formatCurrency(refund.amountCents)} for your ${store.title} order ${number}`,
      heading: 'We refunded you',
      sentence: `${store.title} refunded ${formatCurrency(refund.amountCents)} of order ${number}.`,
      facts: [
        ...(refund.cardCents > 0 ? [{ label: 'Back to your card', value: formatCurrency(refund.cardCents) }] : []),
        ...(giftCents > 0 ? [{ label: 'Back to your gift cards', value: formatCurrency(giftCents) }] : []),
        { label: 'Refunded in all', value: formatCurrency(refund.settledTotalCents) },
      ],
    },
    deps,
  );
}
