/**
 * The order confirmation mail: the same facts as the order page (items grouped into bundles,
 * the amounts rows, the shipping address) as plain text and as HTML rendered with React, which
 * escapes every value that comes from data (docs/decisions/100-mail-outbox.md).
 */
import { createElement as h, type CSSProperties, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Order } from '../../lib/contract/answers.ts';
import { groupCartItems } from '../../lib/bundle-grouping.ts';
import { itemLabel } from '../../lib/item-title.ts';
import { summaryRows } from '../../lib/cart-summary.ts';
import { formatCurrency, formatDate } from '../../lib/money.ts';
import { ALL_COUNTRIES } from '../../lib/country-data.ts';
import { printedAddress } from '../../lib/printed-address.ts';
import { addressFormat } from '../../lib/address-format-data.ts';
import { storeLinks, storeUrl } from '../../lib/store-links.ts';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database, OrderRow, StoreRow } from '../db/schema.ts';
import type { Clock } from '../http/context.ts';
import { reshapeOrder } from '../orders/reshape.ts';
import { enqueueMail } from './outbox.ts';

export type ReceiptStore = Pick<StoreRow, 'title' | 'slug' | 'custom_domain'>;

export type RenderedMail = {
  subject: string;
  text: string;
  html: string;
};

type ReceiptLine = {
  label: string;
  amount: string;
  /** Bundle items, "2 × Notebook (A5)". */
  items: string[];
};

type Receipt = {
  storeTitle: string;
  number: string;
  date: string;
  lines: ReceiptLine[];
  amounts: { label: string; value: string; total: boolean }[];
  address: string[];
  orderUrl: string;
};

/** Link to the order page: the store's own domain when it has one, else `{PUBLIC_SITE_URL}/{slug}`. */
export function orderPageUrl(
  store: Pick<StoreRow, 'slug' | 'custom_domain'>,
  orderId: string,
  siteUrl: string,
): string {
  return storeUrl({ slug: store.slug, customDomain: store.custom_domain }, storeLinks('').order(orderId), siteUrl).href;
}

function receiptOf(store: ReceiptStore, order: Order, siteUrl: string): Receipt {
  const details = order.orderDetails;
  const lines = groupCartItems(details.cartItems).map((entry): ReceiptLine =>
    entry.type === 'bundle'
      ? {
          label: `${entry.quantity} × ${entry.name}`,
          amount: formatCurrency(entry.total),
          items: entry.items.map(itemLabel),
        }
      : {
          label: itemLabel(entry.item),
          amount: formatCurrency(entry.item.price),
          items: [],
        },
  );
  return {
    storeTitle: store.title,
    number: details.number,
    date: formatDate(details.createdAt),
    lines,
    amounts: summaryRows(details, { priced: true }).map((row) => ({
      label: row.label,
      value: row.value,
      total: row.kind === 'total',
    })),
    address: printedAddress(details.address, ALL_COUNTRIES, addressFormat(details.address.country)),
    orderUrl: orderPageUrl(store, details.id, siteUrl),
  };
}

const WIDTH = 64;
const row = (label: string, amount: string) => `${label.padEnd(WIDTH - amount.length - 1)} ${amount}`;

function receiptText(r: Receipt): string {
  return [
    `Thank you for your order!`,
    ``,
    `${r.storeTitle}: order ${r.number}, placed ${r.date}`,
    ``,
    `Items`,
    ...r.lines.flatMap((line) => [row(`  ${line.label}`, line.amount), ...line.items.map((item) => `      ${item}`)]),
    ``,
    ...r.amounts.map((a) => row(`  ${a.label}`, a.value)),
    ``,
    `Shipping address`,
    ...r.address.map((line) => `  ${line}`),
    ``,
    `View your order: ${r.orderUrl}`,
    ``,
  ].join('\n');
}

// Inline styles and tables: what mail clients render consistently.
const font: CSSProperties = {
  fontFamily: 'Helvetica, Arial, sans-serif',
  color: '#1f2933',
  fontSize: '15px',
  lineHeight: '1.5',
};
const cell: CSSProperties = { padding: '6px 0', verticalAlign: 'top' };
const money: CSSProperties = { ...cell, textAlign: 'right', whiteSpace: 'nowrap' };

/**
 * The frame every order mail shares (the confirmation, the shipping and refund notices): the store's
 * name, a heading, the mail's own rows, and the link to the order page.
 */
export function orderMailHtml(parts: {
  subject: string;
  storeTitle: string;
  heading: string;
  orderUrl: string;
  rows: ReactNode[];
}): string {
  const tr = (content: ReactNode, style?: CSSProperties, key?: number) =>
    h('tr', key === undefined ? null : { key }, h('td', style ? { style } : null, content));
  const document = h(
    'html',
    { lang: 'en' },
    h(
      'head',
      null,
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('title', null, parts.subject),
    ),
    h(
      'body',
      { style: { margin: 0, padding: '24px 12px', background: '#f4f5f7' } },
      h(
        'table',
        {
          role: 'presentation',
          width: '100%',
          cellPadding: 0,
          cellSpacing: 0,
          style: { ...font, maxWidth: '600px', margin: '0 auto', background: '#ffffff', padding: '24px' },
        },
        h(
          'tbody',
          null,
          tr([
            h('p', { key: 's', style: { margin: '0 0 4px', fontSize: '13px', color: '#52606d' } }, parts.storeTitle),
            h('h1', { key: 'h', style: { margin: '0 0 8px', fontSize: '22px' } }, parts.heading),
          ]),
          parts.rows.map((content, i) => tr(content, undefined, i)),
          tr(
            [
              h(
                'a',
                {
                  key: 'b',
                  href: parts.orderUrl,
                  style: {
                    display: 'inline-block',
                    background: '#1f2933',
                    color: '#ffffff',
                    padding: '10px 18px',
                    borderRadius: '4px',
                    textDecoration: 'none',
                  },
                },
                'View your order',
              ),
              h(
                'p',
                { key: 'l', style: { fontSize: '13px', color: '#52606d', margin: '12px 0 0' } },
                'Or open this link: ',
                h('a', { href: parts.orderUrl, style: { color: '#1f2933' } }, parts.orderUrl),
              ),
            ],
            { paddingTop: '24px' },
          ),
        ),
      ),
    ),
  );
  return `<!DOCTYPE html>${renderToStaticMarkup(document)}`;
}

/** A two-column table of label and amount rows (items, amounts, a refund's facts). */
export function amountsTable(rows: { label: ReactNode; value: string; bold?: boolean }[]): ReactNode {
  return h(
    'table',
    { role: 'presentation', width: '100%', cellPadding: 0, cellSpacing: 0, style: font },
    h(
      'tbody',
      null,
      rows.map((row, i) =>
        h(
          'tr',
          { key: i, style: row.bold ? { fontWeight: 'bold' } : undefined },
          h('td', { style: cell }, row.label),
          h('td', { style: money }, row.value),
        ),
      ),
    ),
  );
}

function receiptRows(r: Receipt): ReactNode[] {
  return [
    h('p', { style: { margin: '0 0 16px' } }, 'Order ', h('strong', null, r.number), `, placed ${r.date}`),
    [
      h('h2', { key: 'h', style: { fontSize: '16px', margin: '8px 0' } }, 'Items'),
      h(
        'div',
        { key: 't' },
        amountsTable(
          r.lines.map((line) => ({
            label: [
              line.label,
              line.items.length > 0
                ? h(
                    'ul',
                    { key: 'u', style: { margin: '4px 0 0', paddingLeft: '20px', color: '#52606d' } },
                    line.items.map((item, j) => h('li', { key: j }, item)),
                  )
                : null,
            ],
            value: line.amount,
          })),
        ),
      ),
    ],
    h(
      'div',
      { style: { borderTop: '1px solid #d9dde3', paddingTop: '8px' } },
      amountsTable(r.amounts.map((a) => ({ label: a.label, value: a.value, bold: a.total }))),
    ),
    [
      h('h2', { key: 'h', style: { fontSize: '16px', margin: '16px 0 8px' } }, 'Shipping address'),
      h(
        'p',
        { key: 'p', style: { margin: 0 } },
        r.address.flatMap((line, i) => (i === 0 ? [line] : [h('br', { key: i }), line])),
      ),
    ],
  ];
}

/** Subject, plain text and HTML of the confirmation of `order` placed in `store`. */
export function renderOrderReceipt(store: ReceiptStore, order: Order, siteUrl: string): RenderedMail {
  const r = receiptOf(store, order, siteUrl);
  const subject = `Your ${r.storeTitle} order ${r.number}`;
  return {
    subject,
    text: receiptText(r),
    html: orderMailHtml({
      subject,
      storeTitle: r.storeTitle,
      heading: 'Thank you for your order!',
      orderUrl: r.orderUrl,
      rows: receiptRows(r),
    }),
  };
}

/**
 * Puts the order's confirmation into the outbox. Call it in the order's own transaction: the mail
 * exists exactly when the order does, and its dedupe key makes a second call a no-op.
 */
export async function queueOrderReceipt(
  db: Kysely<Database>,
  store: ReceiptStore,
  order: OrderRow,
  deps: { config: Config; clock: Clock },
): Promise<void> {
  const answer = reshapeOrder(order, store.slug);
  const mail = renderOrderReceipt(store, answer, deps.config.PUBLIC_SITE_URL);
  await enqueueMail(
    db,
    { kind: 'order_receipt', dedupeKey: `order-receipt:${order.id}`, to: answer.orderDetails.address.email, ...mail },
    { mailFrom: deps.config.MAIL_FROM, now: deps.clock.now() },
  );
}
