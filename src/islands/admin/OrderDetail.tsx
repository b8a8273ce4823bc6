/**
 * /admin/{store}/orders/{id}: one order with its lines, amounts, payment, address, refunds and
 * history; owners refund part or all of it (restocking chosen lines), owners and editors mark it
 * fulfilled (docs/decisions/198-console-orders.md). Each form keeps its idempotency key until its
 * request succeeds, so pressing again after a failure is the same refund, never a second one.
 */
import { useCallback, useEffect, useState, type ReactNode, type SubmitEvent } from 'react';
import type { ConsoleOrder, OperatorRole } from '../../lib/contract/answers.ts';
import { consoleApi, ConsoleError } from '../../lib/api-client/console-api.ts';
import { formatCurrency } from '../../lib/money.ts';
import { formMessage, type FieldResult, type RuleSet } from '../../lib/validation/index.ts';
import { Checkbox } from '../forms/Checkbox.tsx';
import { FormMessage } from '../forms/FormMessage.tsx';
import { TextField } from '../forms/TextField.tsx';
import { FULFILMENT_WORDS, PAYMENT_WORDS, shownTime } from './order-words.ts';
import { StaffGate } from './StoreGate.tsx';

type Props = { slug: string; id: string };
type FormProps = { slug: string; order: ConsoleOrder; save: Save };
type Notice = { ok: boolean; text: string } | null;
type Save = (request: () => Promise<{ data: ConsoleOrder }>, done: string) => Promise<Record<string, string[]> | null>;

const AMOUNT_RULES: RuleSet = ['required', ['matches', /^\d{1,9}(\.\d{1,2})?$/]];
const newKey = () => crypto.randomUUID();
/** The fields the forms below show a server message next to. */
const FORM_FIELDS = new Set(['amount', 'restock', 'carrier', 'tracking_number']);
/** A text field's value from a submitted form, trimmed. */
function textOf(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** Label and value rows of a `<dl>`. */
function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="console__facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function RefundForm({ slug, order, save }: FormProps) {
  const [key, setKey] = useState(newKey);
  const [attempted, setAttempted] = useState(false);
  const [amountResult, setAmountResult] = useState<FieldResult | undefined>();
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [formKey, setFormKey] = useState(0);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setAttempted(true);
    if (!amountResult?.valid) return;
    const form = new FormData(event.currentTarget);
    const amount = textOf(form, 'amount');
    const restock = form.getAll('restock').filter((value) => typeof value === 'string');
    const refused = await save(
      () => consoleApi.refund(slug, order.id, { amount, restock, idempotency_key: key }),
      `Refunded ${formatCurrency(amount)}.`,
    );
    setErrors(refused ?? {});
    if (!refused) {
      setKey(newKey());
      setAttempted(false);
      setFormKey((k) => k + 1);
    }
  }

  const restockable = order.lines.filter((line) => !line.restocked);
  return (
    <form key={formKey} className="console__form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <TextField
        name="amount"
        label="Amount to refund"
        inputMode="decimal"
        rules={AMOUNT_RULES}
        messages={{ matches: 'Enter an amount like 12.50.' }}
        hint={`Up to ${formatCurrency(order.refundable)}: the card first, then the gift cards that paid.`}
        showErrors={attempted}
        onValidity={setAmountResult}
        {...(errors.amount?.[0] ? { error: errors.amount[0] } : {})}
      />
      {restockable.length > 0 && (
        <fieldset className="console__fieldset console__choices">
          <legend>Put back in stock</legend>
          {restockable.map((line) => (
            <Checkbox
              key={line.id}
              name="restock"
              value={line.id}
              label={`${line.quantity} × ${line.product_name} (${line.variant_name})`}
            />
          ))}
          {errors.restock?.[0] && (
            <p className="sf-field__error" role="alert">
              {errors.restock[0]}
            </p>
          )}
        </fieldset>
      )}
      <FormMessage message={attempted ? formMessage([amountResult]) : null} />
      <button type="submit" className="button button--primary">
        Refund
      </button>
    </form>
  );
}

function FulfilForm({ slug, order, save }: FormProps) {
  const [attempted, setAttempted] = useState(false);
  const [results, setResults] = useState<Record<string, FieldResult>>({});
  const [errors, setErrors] = useState<Record<string, string[]>>({});

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setAttempted(true);
    if (!results.carrier?.valid || !results.tracking_number?.valid) return;
    const form = new FormData(event.currentTarget);
    const shipment = {
      carrier: textOf(form, 'carrier'),
      tracking_number: textOf(form, 'tracking_number'),
    };
    const refused = await save(
      () => consoleApi.fulfil(slug, order.id, shipment),
      `Marked fulfilled; ${order.email} is told.`,
    );
    setErrors(refused ?? {});
  }

  const field = (name: 'carrier' | 'tracking_number', label: string) => (
    <TextField
      name={name}
      label={label}
      rules="required"
      showErrors={attempted}
      onValidity={(result) => setResults((r) => ({ ...r, [name]: result }))}
      {...(errors[name]?.[0] ? { error: errors[name][0] } : {})}
    />
  );
  return (
    <form className="console__form" noValidate onSubmit={(event) => void onSubmit(event)}>
      {field('carrier', 'Carrier')}
      {field('tracking_number', 'Tracking number')}
      <FormMessage message={attempted ? formMessage([results.carrier, results.tracking_number]) : null} />
      <button type="submit" className="button button--primary">
        Mark fulfilled
      </button>
    </form>
  );
}

function Lines({ order }: { order: ConsoleOrder }) {
  return (
    <table className="console__table">
      <caption className="sr-only">Items of order {order.number}</caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col">SKU</th>
          <th scope="col">Quantity</th>
          <th scope="col">Unit price</th>
          <th scope="col">Total</th>
        </tr>
      </thead>
      <tbody>
        {order.lines.map((line) => (
          <tr key={line.id}>
            <th scope="row" data-label="Item">
              {line.product_name} ({line.variant_name})
              {line.bundle && <span className="console__hint"> in {line.bundle.name}</span>}
              {line.restocked && <span className="console__hint"> — back in stock</span>}
            </th>
            <td data-label="SKU">{line.sku ?? '—'}</td>
            <td data-label="Quantity">{line.quantity}</td>
            <td data-label="Unit price">{formatCurrency(line.unit_price)}</td>
            <td data-label="Total">{formatCurrency(line.price)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Refunds the payment provider has not confirmed: counted against what is left, asked again by the
 * reconciliation job every few minutes, or now by an owner (the same refund, never a second one).
 */
function OwedRefunds({ slug, order, role, save }: FormProps & { role: OperatorRole }) {
  const owed = order.refunds.filter((refund) => !refund.settled);
  if (owed.length === 0) return null;
  return (
    <ul className="console__list">
      {owed.map((refund) => (
        <li key={refund.id} className="console__flag">
          <p>
            A refund of {formatCurrency(refund.amount)} asked for by {refund.actor} is waiting for the payment
            provider’s answer. It is tried again every few minutes.
          </p>
          {role === 'owner' && (
            <button
              type="button"
              className="button"
              onClick={() =>
                void save(
                  () => consoleApi.retryRefund(slug, order.id, refund.id),
                  `Refunded ${formatCurrency(refund.amount)}.`,
                )
              }
            >
              Try the refund of {formatCurrency(refund.amount)} again
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function Order({ slug, id, role }: Props & { role: OperatorRole }) {
  const [order, setOrder] = useState<ConsoleOrder | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  const load = useCallback(() => {
    consoleApi
      .order(slug, id)
      .then((answer) => setOrder(answer.data))
      .catch((error: unknown) =>
        setNotice({ ok: false, text: error instanceof Error ? error.message : String(error) }),
      );
  }, [slug, id]);
  useEffect(load, [load]);

  const save: Save = async (request, done) => {
    setNotice(null);
    try {
      setOrder((await request()).data);
      setNotice({ ok: true, text: done });
      return null;
    } catch (error) {
      const fields = error instanceof ConsoleError ? error.errors : {};
      // A field's refusal is shown next to that field; the rest (a reused idempotency key…) above the order.
      if (!Object.keys(fields).every((name) => FORM_FIELDS.has(name)) || Object.keys(fields).length === 0)
        setNotice({ ok: false, text: error instanceof Error ? error.message : String(error) });
      return fields;
    }
  };

  const message = notice && (
    <div className={notice.ok ? 'alert' : 'alert alert--error'} role={notice.ok ? 'status' : 'alert'}>
      {notice.text}
    </div>
  );
  if (!order) return message ?? <p role="status">Loading…</p>;
  const { address } = order;
  return (
    <>
      <h1>Order {order.number}</h1>
      {message}
      <Facts
        rows={[
          ['Placed', <time dateTime={order.created_at}>{shownTime(order.created_at)}</time>],
          ['Customer', `${order.name}, ${order.email}`],
          ['Payment', `${PAYMENT_WORDS[order.payment_status]}: ${formatCurrency(order.paid)} paid`],
          ['Refunded', formatCurrency(order.refunded)],
          [
            'Fulfilment',
            order.fulfillment
              ? `${FULFILMENT_WORDS.fulfilled}: ${order.fulfillment.carrier} ${order.fulfillment.tracking_number}`
              : FULFILMENT_WORDS.unfulfilled,
          ],
        ]}
      />
      <h2>Items</h2>
      <Lines order={order} />
      <h2>Amounts</h2>
      <Facts
        rows={[
          ['Subtotal', formatCurrency(order.subtotal)],
          ['Tax', formatCurrency(order.tax)],
          ['Shipping', formatCurrency(order.shipping)],
          ['Gift cards', formatCurrency(order.gift_cards_total)],
          ['Card', formatCurrency(order.card_total)],
          ['Left to refund', formatCurrency(order.refundable)],
        ]}
      />
      <h2>Payment</h2>
      <Facts
        rows={[
          [
            'Card payment',
            order.payment ? `${order.payment.payment_intent_id} (${order.payment.provider})` : 'None: gift cards only',
          ],
          [
            'Gift cards used',
            order.gift_cards.length === 0
              ? 'None'
              : order.gift_cards.map((card) => `${card.code}: ${formatCurrency(card.amount)}`).join(', '),
          ],
        ]}
      />
      <h2>Shipping address</h2>
      <address className="console__address">
        {[
          `${address.first_name} ${address.last_name}`,
          address.address_line1,
          address.address_line2,
          `${address.city}, ${address.state} ${address.zip}`,
          address.country,
          address.phone,
        ]
          .filter(Boolean)
          .map((line, i) => (
            <span key={i}>{line}</span>
          ))}
      </address>
      <h2>Refund</h2>
      <OwedRefunds slug={slug} order={order} role={role} save={save} />
      {role !== 'owner' ? (
        <p>Only the store’s owners can refund.</p>
      ) : order.refundable === '0.00' ? (
        <p>Nothing is left to refund.</p>
      ) : (
        <RefundForm slug={slug} order={order} save={save} />
      )}
      <h2>Fulfilment</h2>
      {order.fulfillment ? (
        <p>
          Shipped with {order.fulfillment.carrier}, tracking number {order.fulfillment.tracking_number}.
        </p>
      ) : order.payment_status === 'refunded' ? (
        <p>A refunded order is not shipped.</p>
      ) : (
        <FulfilForm slug={slug} order={order} save={save} />
      )}
      <h2>History</h2>
      <ol className="console__audit">
        {order.history.map((event, i) => (
          <li key={i} className="console__panel">
            <time dateTime={event.at}>{shownTime(event.at)}</time>: {event.summary}
          </li>
        ))}
      </ol>
      <p>
        <a href={`/admin/${slug}/orders`}>All orders</a>
      </p>
    </>
  );
}

export default function OrderDetail(props: Props) {
  return <StaffGate slug={props.slug}>{(store) => <Order {...props} role={store.role} />}</StaffGate>;
}
