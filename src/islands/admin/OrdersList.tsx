/**
 * /admin/{store}/orders (owners and editors): the store's orders, newest first. The filters are a GET
 * form, so they live in the page's URL (a link or a reload shows the same list); a table on a wide
 * screen, a list of cards on a phone (ConsoleLayout's styles).
 */
import { useEffect, useState } from 'react';
import type { ConsoleOrderSummary, Many } from '../../lib/contract/answers.ts';
import { consoleApi, ConsoleError } from '../../lib/api-client/console-api.ts';
import { formatCurrency } from '../../lib/money.ts';
import { Field } from '../forms/Field.tsx';
import { TextField } from '../forms/TextField.tsx';
import { FULFILMENT_WORDS, PAYMENT_WORDS, shownTime } from './order-words.ts';
import { StaffGate } from './StoreGate.tsx';

const STATUS_OPTIONS = [
  ['', 'Any status'],
  ['paid', 'Paid, not refunded'],
  ['partially_refunded', 'Partly refunded'],
  ['refunded', 'Refunded'],
  ['unfulfilled', 'Not fulfilled'],
  ['fulfilled', 'Fulfilled'],
] as const;

type Props = { slug: string; query: string };

function Filters({
  slug,
  filters,
  errors,
}: {
  slug: string;
  filters: URLSearchParams;
  errors: Record<string, string[]>;
}) {
  const text = (name: string, label: string, type: 'search' | 'date' | 'text' = 'text', hint?: string) => (
    <TextField
      name={name}
      label={label}
      type={type}
      defaultValue={filters.get(name) ?? ''}
      {...(hint ? { hint } : {})}
      {...(errors[name]?.[0] ? { error: errors[name][0] } : {})}
    />
  );
  return (
    <form method="get" className="console__filters" role="search" aria-label="Filter orders" noValidate>
      {text('q', 'Search', 'search', 'Order number, email or name')}
      <Field label="Status" {...(errors.status?.[0] ? { error: errors.status[0] } : {})}>
        {(aria) => (
          <select {...aria} name="status" defaultValue={filters.get('status') ?? ''} className="console__select">
            {STATUS_OPTIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {text('from', 'Placed from', 'date')}
      {text('to', 'Placed until', 'date')}
      {text('email', 'Email')}
      {text('number', 'Order number')}
      <p className="console__links">
        <button type="submit" className="button button--primary">
          Show orders
        </button>
        <a href={`/admin/${slug}/orders`}>Clear filters</a>
      </p>
    </form>
  );
}

function OrderRows({ slug, orders }: { slug: string; orders: ConsoleOrderSummary[] }) {
  return (
    <table className="console__table">
      <caption className="sr-only">Orders, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Order</th>
          <th scope="col">Placed</th>
          <th scope="col">Customer</th>
          <th scope="col">Paid</th>
          <th scope="col">Payment</th>
          <th scope="col">Fulfilment</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order.id}>
            <th scope="row" data-label="Order">
              <a href={`/admin/${slug}/orders/${order.id}`}>{order.number}</a>
            </th>
            <td data-label="Placed">
              <time dateTime={order.created_at}>{shownTime(order.created_at)}</time>
            </td>
            <td data-label="Customer">
              {order.name}
              <br />
              <span className="console__hint">{order.email}</span>
            </td>
            <td data-label="Paid">{formatCurrency(order.paid)}</td>
            <td data-label="Payment">
              {PAYMENT_WORDS[order.payment_status]}
              {order.payment_status !== 'paid' && ` (${formatCurrency(order.refunded)})`}
            </td>
            <td data-label="Fulfilment">{FULFILMENT_WORDS[order.fulfillment_status]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Orders({ slug, query }: Props) {
  const [answer, setAnswer] = useState<Many<ConsoleOrderSummary> | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const filters = new URLSearchParams(query);

  useEffect(() => {
    consoleApi
      .orders(slug, new URLSearchParams(query))
      .then(setAnswer)
      .catch((error: unknown) => {
        if (error instanceof ConsoleError && error.status === 422) setErrors(error.errors);
        setFailure(error instanceof Error ? error.message : String(error));
      });
  }, [slug, query]);

  const meta = answer?.meta;
  const pages = meta ? Math.max(1, Math.ceil(meta.total / meta.perPage)) : 1;
  const pageLink = (page: number) => {
    const next = new URLSearchParams(query);
    next.set('page', String(page));
    return `?${next.toString()}`;
  };
  return (
    <>
      <Filters slug={slug} filters={filters} errors={errors} />
      {failure ? (
        <div className="alert alert--error" role="alert">
          {failure}
        </div>
      ) : !answer ? (
        <p role="status">Loading…</p>
      ) : answer.data.length === 0 ? (
        <p role="status">
          {[...filters.keys()].some((key) => key !== 'page') ? 'No orders match these filters.' : 'No orders yet.'}
        </p>
      ) : (
        <>
          <p role="status">
            {meta?.total} {meta?.total === 1 ? 'order' : 'orders'}
          </p>
          <OrderRows slug={slug} orders={answer.data} />
          {pages > 1 && meta && (
            <nav aria-label="Order pages" className="console__links">
              {meta.page > 1 && <a href={pageLink(meta.page - 1)}>Newer</a>}
              <span>
                Page {meta.page} of {pages}
              </span>
              {meta.page < pages && <a href={pageLink(meta.page + 1)}>Older</a>}
            </nav>
          )}
        </>
      )}
    </>
  );
}

export default function OrdersList(props: Props) {
  return (
    <StaffGate slug={props.slug}>
      {(store) => (
        <>
          <h1>Orders of {store.title}</h1>
          <Orders {...props} />
        </>
      )}
    </StaffGate>
  );
}
