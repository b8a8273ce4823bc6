/**
 * /admin/{store}/gift-cards (owners and editors): issue a card (its code shown in full this once), the
 * cards with masked codes, and one card's balance and ledger, with adjustments and disabling
 * (docs/decisions/199-console-catalog-and-gift-cards.md).
 */
import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import type { ConsoleGiftCard, ConsoleGiftCardDetail, GiftCardLedgerEntry } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { formatCurrency } from '../../lib/money.ts';
import { TextField } from '../forms/TextField.tsx';
import { Pager, pagesOf } from './Pager.tsx';
import { StaffGate } from './StoreGate.tsx';
import { messageOf, NoticeLine, textOf, useConsoleForm } from './use-console-form.tsx';

const KIND: Record<GiftCardLedgerEntry['kind'], string> = {
  issue: 'Issued',
  redemption: 'Redeemed',
  adjustment: 'Adjusted',
  disable: 'Disabled',
};

function CardDetail({
  slug,
  card,
  onChanged,
}: {
  slug: string;
  card: ConsoleGiftCardDetail;
  onChanged(c: ConsoleGiftCardDetail): void;
}) {
  const { notice, formKey, submit, errorOf } = useConsoleForm();

  const run = (action: () => Promise<{ data: ConsoleGiftCardDetail }>, done: string) =>
    submit(action, (answer) => {
      onChanged(answer.data);
      return done;
    });

  function onAdjust(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    void run(
      () => consoleApi.adjustGiftCard(slug, card.id, textOf(data, 'change'), textOf(data, 'note')),
      'The balance is changed.',
    );
  }

  return (
    <section className="console__panel" aria-labelledby={`card-${card.id}`}>
      <h2 id={`card-${card.id}`}>
        Gift card <code>{card.code}</code>
      </h2>
      <p>
        Balance {formatCurrency(card.balance)} of {formatCurrency(card.initial)}
        {card.disabled && ' · Disabled: refused at checkout'}
      </p>
      <NoticeLine notice={notice} />
      {!card.disabled && (
        <>
          <form key={formKey} className="console__form" noValidate aria-label="Adjust the balance" onSubmit={onAdjust}>
            <TextField
              name="change"
              label="Change, $ (e.g. 5.00 or -5.00)"
              inputMode="decimal"
              {...errorOf('change')}
            />
            <TextField name="note" label="Why" maxLength={500} {...errorOf('note')} />
            <button type="submit" className="button">
              Adjust balance
            </button>
          </form>
          <p>
            <button
              type="button"
              className="button"
              onClick={() => void run(() => consoleApi.disableGiftCard(slug, card.id), 'The gift card is disabled.')}
            >
              Disable this gift card
            </button>
          </p>
        </>
      )}
      <h3>Ledger</h3>
      <ul className="console__list" aria-label="Ledger">
        {card.ledger.map((entry, index) => (
          <li key={`${entry.at}-${index}`}>
            {KIND[entry.kind]} {entry.kind === 'disable' ? '' : formatCurrency(entry.amount)}
            {entry.order_number !== null && ` by order #${entry.order_number}`}
            {entry.note && ` — ${entry.note}`}
            <span className="console__hint">
              {' '}
              ({entry.actor ?? 'checkout'}, {new Date(entry.at).toLocaleString('en-US')})
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Cards({ slug }: { slug: string }) {
  const [cards, setCards] = useState<ConsoleGiftCard[] | null>(null);
  const [page, setPage] = useState(1);
  const [pages, setPages] = useState(1);
  const [issued, setIssued] = useState<ConsoleGiftCard | null>(null);
  const [open, setOpen] = useState<ConsoleGiftCardDetail | null>(null);
  const { notice, setNotice, formKey, submit, errorOf } = useConsoleForm();

  const load = useCallback(() => {
    consoleApi
      .giftCards(slug, page)
      .then((answer) => {
        setCards(answer.data);
        setPages(pagesOf(answer));
      })
      .catch((error: unknown) => setNotice({ ok: false, text: messageOf(error) }));
  }, [slug, page, setNotice]);
  useEffect(load, [load]);

  async function onIssue(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setIssued(null);
    await submit(
      () => consoleApi.issueGiftCard(slug, textOf(data, 'amount'), textOf(data, 'note')),
      (answer) => {
        setIssued(answer.data);
        load();
        return null;
      },
    );
  }

  async function show(id: string) {
    try {
      setOpen((await consoleApi.giftCard(slug, id)).data);
    } catch (error) {
      setNotice({ ok: false, text: messageOf(error) });
    }
  }

  return (
    <>
      <h2>Issue a gift card</h2>
      <form key={formKey} className="console__form" noValidate onSubmit={(event) => void onIssue(event)}>
        <TextField
          name="amount"
          label="Amount in dollars"
          inputMode="decimal"
          rules="required"
          {...errorOf('amount')}
        />
        <TextField name="note" label="Note (who it is for, why)" maxLength={500} {...errorOf('note')} />
        <button type="submit" className="button button--primary">
          Issue gift card
        </button>
      </form>
      {issued && (
        <div className="alert" role="status">
          Gift card issued for {formatCurrency(issued.balance)}. Its code, shown only now:{' '}
          <strong>
            <code data-testid="issued-code">{issued.code}</code>
          </strong>
        </div>
      )}
      <NoticeLine notice={notice} />
      {open && (
        <CardDetail
          slug={slug}
          card={open}
          onChanged={(card) => {
            setOpen(card);
            load();
          }}
        />
      )}
      <h2>Gift cards</h2>
      {cards === null ? (
        <p role="status">Loading…</p>
      ) : cards.length === 0 ? (
        <p>No gift cards yet.</p>
      ) : (
        <ul className="console__list" aria-label="Gift cards">
          {cards.map((card) => (
            <li key={card.id} className="console__panel">
              <p>
                <code>{card.code}</code> · {formatCurrency(card.balance)} of {formatCurrency(card.initial)}
                {card.disabled && ' · Disabled'}
              </p>
              <button type="button" className="button" onClick={() => void show(card.id)}>
                Ledger of {card.code}
              </button>
            </li>
          ))}
        </ul>
      )}
      <Pager label="Pages of gift cards" page={page} pages={pages} onPage={setPage} />
    </>
  );
}

export default function GiftCardManager({ slug }: { slug: string }) {
  return (
    <StaffGate slug={slug}>
      {(store) => (
        <>
          <h1>Gift cards of {store.title}</h1>
          <Cards slug={slug} />
        </>
      )}
    </StaffGate>
  );
}
