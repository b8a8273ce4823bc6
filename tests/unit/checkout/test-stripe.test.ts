// @vitest-environment happy-dom
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  createTestStripe,
  evaluateCardNumber,
  evaluateExpiry,
  intentIdFromClientSecret,
  type CardChangeEvent,
  type TestCardElement,
} from '../../../src/lib/payments/test-stripe.ts';

const now = () => new Date('2026-11-21T06:00:00Z');

function type(element: TestCardElement, host: HTMLElement, value: string): void {
  const input = host.querySelector('input');
  if (!input) throw new Error('not mounted');
  input.value = value;
  input.dispatchEvent(new Event('input'));
}

function mountCard(fetchImpl?: typeof fetch) {
  const stripe = createTestStripe({ apiBase: '/api/', now, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
  const elements = stripe.elements();
  const hosts = {
    cardNumber: document.createElement('div'),
    cardExpiry: document.createElement('div'),
    cardCvc: document.createElement('div'),
  };
  const number = elements.create('cardNumber');
  const expiry = elements.create('cardExpiry');
  const cvc = elements.create('cardCvc');
  number.mount(hosts.cardNumber);
  expiry.mount(hosts.cardExpiry);
  cvc.mount(hosts.cardCvc);
  document.body.append(hosts.cardNumber, hosts.cardExpiry, hosts.cardCvc);
  const fill = (n: string, e = '12 / 30', c = '123') => {
    type(number, hosts.cardNumber, n);
    type(expiry, hosts.cardExpiry, e);
    type(cvc, hosts.cardCvc, c);
  };
  return { stripe, elements, number, expiry, cvc, hosts, fill };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('test-stripe card elements', () => {
  test('mounting renders inputs labelled Card number, Expiration date and CVC', () => {
    mountCard();
    const labels = [...document.querySelectorAll('input')].map((i) => i.getAttribute('aria-label'));
    expect(labels).toEqual(['Card number', 'Expiration date', 'CVC']);
  });

  test('typing a card number emits change events with empty, complete and brand', () => {
    const { number, hosts } = mountCard();
    const events: CardChangeEvent[] = [];
    number.on('change', (e) => events.push(e as CardChangeEvent));
    type(number, hosts.cardNumber, '4242');
    type(number, hosts.cardNumber, '4242424242424242');
    expect(events).toEqual([
      { elementType: 'cardNumber', empty: false, complete: false, brand: 'visa' },
      { elementType: 'cardNumber', empty: false, complete: true, brand: 'visa' },
    ]);
    expect(hosts.cardNumber.querySelector('input')?.value).toBe('4242 4242 4242 4242');
  });

  test('a number failing the check digit reports an error', () => {
    expect(evaluateCardNumber('4242 4242 4242 4241').error?.message).toBe('Your card number is invalid.');
  });

  test('an expiry in the past is not complete and says so', () => {
    expect(evaluateExpiry('10 / 26', now())).toMatchObject({
      complete: false,
      error: { code: 'invalid_expiry_year_past' },
    });
    expect(evaluateExpiry('11 / 26', now())).toMatchObject({ complete: true });
    expect(evaluateExpiry('4', now()).display).toBe('04');
  });

  test('off removes a change handler', () => {
    const { cvc, hosts } = mountCard();
    const handler = vi.fn();
    cvc.on('change', handler);
    cvc.off('change', handler);
    type(cvc, hosts.cardCvc, '123');
    expect(handler).not.toHaveBeenCalled();
  });

  test('getElement finds an element by type or by a component carrying __elementType', () => {
    const { elements, number } = mountCard();
    expect(elements.getElement('cardNumber')).toBe(number);
    expect(elements.getElement({ __elementType: 'cardNumber' })).toBe(number);
  });

  test('destroy removes the input and frees the slot', () => {
    const { elements, number, hosts } = mountCard();
    number.destroy();
    expect(hosts.cardNumber.querySelector('input')).toBeNull();
    expect(elements.getElement('cardNumber')).toBeNull();
  });
});

describe('test-stripe confirmCardPayment', () => {
  test('posts the card to the test processor and returns the payment intent', async () => {
    const fetchStub = vi.fn(
      async () =>
        new Response(JSON.stringify({ id: 'pi_9', status: 'succeeded', amount: '52.30', currency: 'usd' }), {
          status: 200,
        }),
    );
    const { stripe, number, fill } = mountCard(fetchStub);
    fill('4242 4242 4242 4242', '12 / 30', '123');
    const result = await stripe.confirmCardPayment('pi_9_secret_xyz', {
      payment_method: { card: number, billing_details: { name: 'Ada' } },
    });
    expect(result).toEqual({ paymentIntent: { id: 'pi_9', status: 'succeeded', amount: '52.30', currency: 'usd' } });
    const [url, init] = fetchStub.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/test_processor/payment_intents/pi_9/confirm');
    expect(JSON.parse(String(init.body))).toEqual({
      card: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' },
    });
  });

  test('a 402 answer becomes a card error with the processor message', async () => {
    const fetchStub = vi.fn(
      async () => new Response(JSON.stringify({ message: 'Your card was declined.' }), { status: 402 }),
    );
    const { stripe, number, fill } = mountCard(fetchStub);
    fill('4000 0000 0000 0002');
    const result = await stripe.confirmCardPayment('pi_9_secret_xyz', { payment_method: { card: number } });
    expect(result).toEqual({
      error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
    });
  });

  test('an incomplete card is refused without calling the processor', async () => {
    const fetchStub = vi.fn();
    const { stripe, number, fill } = mountCard(fetchStub);
    fill('4242 4242', '12 / 30', '123');
    const result = await stripe.confirmCardPayment('pi_9_secret_xyz', { payment_method: { card: number } });
    expect(result.error?.message).toBe('Your card number is incomplete.');
    expect(fetchStub).not.toHaveBeenCalled();
  });

  test('no answer from the processor becomes the unexpected-error message', async () => {
    const { stripe, number, fill } = mountCard(async () => {
      throw new TypeError('fetch failed');
    });
    fill('4242 4242 4242 4242');
    const result = await stripe.confirmCardPayment('pi_9_secret_xyz', { payment_method: { card: number } });
    expect(result.error?.message).toBe('Sorry an unexpected error occurred, please try again.');
  });

  test('the intent id is the client secret before "_secret_"', () => {
    expect(intentIdFromClientSecret('pi_123_secret_abc')).toBe('pi_123');
    expect(intentIdFromClientSecret('pi_123')).toBe('pi_123');
  });
});
