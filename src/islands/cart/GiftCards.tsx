/**
 * The gift card field ('Gift card code' + 'Apply', a refused code's reason under it until a card applies)
 * and the applied cards, each with its amount and 'Remove'.
 */
import { useStore } from '@nanostores/react';
import { useState, type SubmitEvent } from 'react';
import type { GiftCard } from '../../lib/contract/answers.ts';
import { formatCurrency } from '../../lib/money.ts';
import { $giftCardError, applyGiftCard, removeGiftCard } from '../../stores/cart.ts';
import { Field } from '../forms/Field.tsx';

export function GiftCards({ giftCards }: { giftCards: GiftCard[] }) {
  const [code, setCode] = useState('');
  const [applying, setApplying] = useState(false);
  const error = useStore($giftCardError);

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!code.trim() || applying) return;
    setApplying(true);
    const applied = await applyGiftCard(code);
    setApplying(false);
    if (applied) setCode('');
  };

  return (
    <section className="gift-cards" aria-labelledby="gift-cards-heading">
      <h2 id="gift-cards-heading" className="gift-cards__heading">
        Gift cards
      </h2>
      <form className="gift-cards__form" onSubmit={(event) => void onSubmit(event)}>
        <Field label="Gift card code" error={error} id="gift-card-code" announceError>
          {(aria) => (
            <div className="gift-cards__row">
              <input
                {...aria}
                name="gift-card-code"
                autoComplete="off"
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
              <button type="submit" disabled={applying || code.trim() === ''} aria-busy={applying}>
                Apply
              </button>
            </div>
          )}
        </Field>
      </form>
      {giftCards.length > 0 && (
        <ul className="gift-cards__list" aria-label="Applied gift cards">
          {giftCards.map((card) => (
            <li key={card.id} data-testid="gift-card">
              <span className="gift-cards__code">{card.code}</span>
              <span className="gift-cards__amount">-{formatCurrency(card.amount)}</span>
              <button
                type="button"
                className="link-button"
                aria-label={`Remove gift card ${card.code}`}
                onClick={() => void removeGiftCard(card.id)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
