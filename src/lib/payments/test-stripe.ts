/**
 * A local stand-in for the part of the Stripe.js interface @stripe/react-stripe-js uses
 * (docs/decisions/040-checkout-flow-and-stripe-stand-in.md): `elements()`, `create('cardNumber' | 'cardExpiry' | 'cardCvc')`,
 * `mount()`, `on/off('change')`, `update`, `destroy`, `getElement`, `confirmCardPayment`.
 * Test mode (no Stripe keys) runs the very same CardNumberElement & co. against it; its fields
 * are real inputs and its confirmation goes to the API's test processor, which follows
 * Stripe's test card numbers. Never used when PUBLIC_STRIPE_PUBLISHABLE_KEY is set.
 */
import type { PaymentProvider } from '../payment-flow.ts';

export type CardElementType = 'cardNumber' | 'cardExpiry' | 'cardCvc';

export type CardFieldError = {
  type: 'validation_error';
  code: string;
  message: string;
};

/** The `change` event Stripe's card elements emit. */
export type CardChangeEvent = {
  elementType: CardElementType;
  empty: boolean;
  complete: boolean;
  error?: CardFieldError;
  brand: string;
};

type Evaluation = {
  /** What the input shows (formatted). */
  display: string;
  complete: boolean;
  error?: CardFieldError;
};

const LABELS: Record<CardElementType, string> = {
  cardNumber: 'Card number',
  cardExpiry: 'Expiration date',
  cardCvc: 'CVC',
};
const PLACEHOLDERS: Record<CardElementType, string> = {
  cardNumber: '1234 1234 1234 1234',
  cardExpiry: 'MM / YY',
  cardCvc: 'CVC',
};
const AUTOCOMPLETE: Record<CardElementType, string> = {
  cardNumber: 'cc-number',
  cardExpiry: 'cc-exp',
  cardCvc: 'cc-csc',
};

const digitsOf = (raw: string) => raw.replace(/\D/g, '');

/** Card brand from the leading digits, with Stripe's brand names. */
export function cardBrand(raw: string): string {
  const d = digitsOf(raw);
  if (d.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(d)) return 'mastercard';
  if (/^3[47]/.test(d)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(d)) return 'discover';
  return 'unknown';
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let n = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

/** Card number field: groups of four, complete at full length with a valid check digit. */
export function evaluateCardNumber(raw: string): Evaluation {
  const length = cardBrand(raw) === 'amex' ? 15 : 16;
  const digits = digitsOf(raw).slice(0, length);
  const display = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
  if (digits.length < length) return { display, complete: false };
  if (!luhnValid(digits))
    return {
      display,
      complete: false,
      error: { type: 'validation_error', code: 'incorrect_number', message: 'Your card number is invalid.' },
    };
  return { display, complete: true };
}

/** Expiry field "MM / YY": complete with a real month not in the past. */
export function evaluateExpiry(raw: string, now: Date = new Date()): Evaluation {
  let digits = digitsOf(raw);
  // "4" means April: Stripe pads a month that cannot start a two-digit one.
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  const display = digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
  const month = Number(digits.slice(0, 2));
  if (digits.length >= 2 && (month < 1 || month > 12)) {
    return {
      display,
      complete: false,
      error: {
        type: 'validation_error',
        code: 'invalid_expiry_month',
        message: "Your card's expiration month is invalid.",
      },
    };
  }
  if (digits.length < 4) return { display, complete: false };
  const year = 2000 + Number(digits.slice(2));
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (year < thisYear || (year === thisYear && month < thisMonth)) {
    return {
      display,
      complete: false,
      error: {
        type: 'validation_error',
        code: 'invalid_expiry_year_past',
        message: "Your card's expiration date is in the past.",
      },
    };
  }
  return { display, complete: true };
}

/** Security code: three or four digits. */
export function evaluateCvc(raw: string): Evaluation {
  const digits = digitsOf(raw).slice(0, 4);
  return { display: digits, complete: digits.length >= 3 };
}

type Handler = (event: unknown) => void;

/** One mounted card field; the shape react-stripe-js drives. */
export class TestCardElement {
  readonly elementType: CardElementType;
  private readonly group: TestElements;
  private readonly handlers = new Map<string, Set<Handler>>();
  private input: HTMLInputElement | null = null;
  private container: HTMLElement | null = null;
  private options: Record<string, unknown>;
  private state: CardChangeEvent;

  constructor(type: CardElementType, group: TestElements, options: Record<string, unknown> = {}) {
    this.elementType = type;
    this.group = group;
    this.options = options;
    this.state = { elementType: type, empty: true, complete: false, brand: 'unknown' };
  }

  /** The field's current value without formatting (the test processor reads it). */
  get value(): string {
    return this.input ? digitsOf(this.input.value) : '';
  }

  get complete(): boolean {
    return this.state.complete;
  }

  mount(target: HTMLElement | string): void {
    const container = typeof target === 'string' ? document.querySelector<HTMLElement>(target) : target;
    if (!container)
      throw new Error(
        `test-stripe: nothing to mount ${this.elementType} into (${typeof target === 'string' ? target : target.tagName})`,
      );
    const input = document.createElement('input');
    input.type = 'text';
    input.inputMode = 'numeric';
    input.autocomplete = AUTOCOMPLETE[this.elementType] as AutoFill;
    input.name = AUTOCOMPLETE[this.elementType];
    input.placeholder = PLACEHOLDERS[this.elementType];
    input.setAttribute('aria-label', LABELS[this.elementType]);
    input.className = 'test-stripe-input';
    input.disabled = this.options.disabled === true;
    input.addEventListener('input', () => this.onInput());
    input.addEventListener('focus', () => {
      container.classList.add('StripeElement--focus');
      this.emit('focus', { elementType: this.elementType });
    });
    input.addEventListener('blur', () => {
      container.classList.remove('StripeElement--focus');
      this.emit('blur', { elementType: this.elementType });
    });
    container.classList.add('StripeElement', 'StripeElement--empty');
    container.appendChild(input);
    this.input = input;
    this.container = container;
    // Stripe reports `ready` asynchronously, after the iframe loaded.
    queueMicrotask(() => this.emit('ready', this));
  }

  private onInput(): void {
    if (!this.input) return;
    const raw = this.input.value;
    const evaluation =
      this.elementType === 'cardNumber'
        ? evaluateCardNumber(raw)
        : this.elementType === 'cardExpiry'
          ? evaluateExpiry(raw, this.group.now())
          : evaluateCvc(raw);
    if (this.input.value !== evaluation.display) this.input.value = evaluation.display;
    this.state = {
      elementType: this.elementType,
      empty: evaluation.display === '',
      complete: evaluation.complete,
      brand: this.elementType === 'cardNumber' ? cardBrand(raw) : this.group.brand(),
      ...(evaluation.error ? { error: evaluation.error } : {}),
    };
    this.input.setAttribute('aria-invalid', evaluation.error ? 'true' : 'false');
    this.container?.classList.toggle('StripeElement--empty', this.state.empty);
    this.container?.classList.toggle('StripeElement--complete', this.state.complete);
    this.container?.classList.toggle('StripeElement--invalid', Boolean(evaluation.error));
    this.emit('change', { ...this.state });
  }

  on(event: string, handler: Handler): this {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(handler);
    return this;
  }

  off(event: string, handler?: Handler): this {
    if (handler) this.handlers.get(event)?.delete(handler);
    else this.handlers.delete(event);
    return this;
  }

  private emit(event: string, payload: unknown): void {
    for (const handler of this.handlers.get(event) ?? []) handler(payload);
  }

  update(options: Record<string, unknown>): void {
    this.options = { ...this.options, ...options };
    if (this.input && 'disabled' in options) this.input.disabled = options.disabled === true;
  }

  focus(): void {
    this.input?.focus();
  }

  blur(): void {
    this.input?.blur();
  }

  clear(): void {
    if (!this.input) return;
    this.input.value = '';
    this.onInput();
  }

  unmount(): void {
    this.input?.remove();
    this.input = null;
  }

  destroy(): void {
    this.unmount();
    this.handlers.clear();
    this.group.forget(this);
  }
}

/** The `elements()` group: one element per card field type, as in Stripe.js. */
export class TestElements {
  private readonly elements = new Map<CardElementType, TestCardElement>();
  readonly now: () => Date;

  constructor(now: () => Date) {
    this.now = now;
  }

  create(type: string, options?: Record<string, unknown>): TestCardElement {
    if (type !== 'cardNumber' && type !== 'cardExpiry' && type !== 'cardCvc') {
      throw new Error(
        `test-stripe: element type "${type}" is not supported in test mode; use cardNumber, cardExpiry or cardCvc`,
      );
    }
    if (this.elements.has(type)) throw new Error(`test-stripe: only one ${type} element per elements group`);
    const element = new TestCardElement(type, this, options);
    this.elements.set(type, element);
    return element;
  }

  /** Accepts the type name or a react-stripe-js component (which carries `__elementType`). */
  getElement(typeOrComponent: string | { __elementType?: string }): TestCardElement | null {
    const type = typeof typeOrComponent === 'string' ? typeOrComponent : typeOrComponent.__elementType;
    return this.elements.get(type as CardElementType) ?? null;
  }

  update(_options: Record<string, unknown>): void {
    // Appearance and locale options do not change how the plain inputs behave.
  }

  brand(): string {
    return cardBrand(this.elements.get('cardNumber')?.value ?? '');
  }

  field(type: CardElementType): TestCardElement | undefined {
    return this.elements.get(type);
  }

  forget(element: TestCardElement): void {
    if (this.elements.get(element.elementType) === element) this.elements.delete(element.elementType);
  }
}

export type ConfirmCardPaymentData = {
  payment_method: { card: unknown; billing_details?: { name?: string; email?: string } };
};

export type TestPaymentIntent = {
  id: string;
  status: string;
  amount: string;
  currency: string;
};

export type ConfirmCardPaymentResult =
  | { paymentIntent: TestPaymentIntent; error?: undefined }
  | { error: { type: string; code?: string; message: string }; paymentIntent?: undefined };

export type TestStripeOptions = {
  /** The API base URL, e.g. "/api/". */
  apiBase: string;
  fetch?: typeof fetch;
  now?: () => Date;
};

const UNEXPECTED = 'Sorry an unexpected error occurred, please try again.';

/** Stripe's client secrets are "{intent id}_secret_{secret}". */
export function intentIdFromClientSecret(clientSecret: string): string {
  const at = clientSecret.indexOf('_secret_');
  return at === -1 ? clientSecret : clientSecret.slice(0, at);
}

/**
 * The stand-in Stripe object handed to `<Elements stripe={…}>` in test mode. Its payment half is
 * the checkout's PaymentProvider, checked by the compiler; its elements half is the surface
 * react-stripe-js calls (docs/decisions/170-services-and-one-api-client.md).
 */
export class TestStripe implements PaymentProvider {
  private readonly options: TestStripeOptions;
  private readonly groups = new Set<TestElements>();

  constructor(options: TestStripeOptions) {
    this.options = options;
  }

  elements(_options?: unknown): TestElements {
    const group = new TestElements(this.options.now ?? (() => new Date()));
    this.groups.add(group);
    return group;
  }

  async confirmCardPayment(clientSecret: string, data: ConfirmCardPaymentData): Promise<ConfirmCardPaymentResult> {
    const card = data.payment_method.card;
    if (!(card instanceof TestCardElement)) {
      return { error: { type: 'validation_error', code: 'missing_card', message: 'Your card number is incomplete.' } };
    }
    const group = [...this.groups].find((g) => g.field(card.elementType) === card);
    const number = group?.field('cardNumber');
    const expiry = group?.field('cardExpiry');
    const cvc = group?.field('cardCvc');
    if (!number?.complete)
      return {
        error: { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' },
      };
    if (!expiry?.complete)
      return {
        error: {
          type: 'validation_error',
          code: 'incomplete_expiry',
          message: "Your card's expiration date is incomplete.",
        },
      };
    if (!cvc?.complete)
      return {
        error: {
          type: 'validation_error',
          code: 'incomplete_cvc',
          message: "Your card's security code is incomplete.",
        },
      };

    const expiryDigits = expiry.value.padStart(4, '0');
    const body = {
      card: {
        number: number.value,
        exp_month: Number(expiryDigits.slice(0, 2)),
        exp_year: 2000 + Number(expiryDigits.slice(2, 4)),
        cvc: cvc.value,
      },
    };
    const url = `${this.options.apiBase.replace(/\/?$/, '/')}test_processor/payment_intents/${encodeURIComponent(intentIdFromClientSecret(clientSecret))}/confirm`;
    const doFetch = this.options.fetch ?? fetch;
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        credentials: 'same-origin',
      });
    } catch {
      return { error: { type: 'api_connection_error', message: UNEXPECTED } };
    }
    const answer = (await response.json().catch(() => null)) as
      ({ message?: string } & Partial<TestPaymentIntent>) | null;
    if (response.ok && answer?.id && answer.status) {
      return {
        paymentIntent: {
          id: answer.id,
          status: answer.status,
          amount: answer.amount ?? '',
          currency: answer.currency ?? 'usd',
        },
      };
    }
    if (response.status === 402) {
      return {
        error: { type: 'card_error', code: 'card_declined', message: answer?.message ?? 'Your card was declined.' },
      };
    }
    return { error: { type: 'api_error', message: answer?.message ?? UNEXPECTED } };
  }

  // react-stripe-js checks these exist before accepting the object as a Stripe instance.
  createToken(): Promise<ConfirmCardPaymentResult> {
    return Promise.resolve({
      error: { type: 'invalid_request_error', message: 'createToken is not available in test mode.' },
    });
  }

  createPaymentMethod(): Promise<ConfirmCardPaymentResult> {
    return Promise.resolve({
      error: { type: 'invalid_request_error', message: 'createPaymentMethod is not available in test mode.' },
    });
  }
}

/** A stand-in Stripe object for test mode. */
export function createTestStripe(options: TestStripeOptions): TestStripe {
  return new TestStripe(options);
}
