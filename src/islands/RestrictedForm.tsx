/**
 * The allowed-users form of a restricted store (spec §1, §7): `POST store_front/{slug}/allowed_users/verify`
 * (`?custom_domain=` on the store's own domain). The confirmation reads the same whether or not the
 * address is listed, so the form never reveals the list.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { createApiClient, publicApiBaseUrl } from '../lib/api-client.ts';
import { browserCookieJar, COOKIE, cookieToSet } from '../lib/cookies.ts';
import { notificationFor } from '../lib/error-catalogue.ts';
import { validate } from '../lib/validation/index.ts';
import { TextField } from './forms/TextField.tsx';

const EMAIL_RULES = 'required|email';

export interface RestrictedFormProps {
  /** The store's slug, or '-' on a custom domain (the API then finds the store by `customDomain`). */
  slug: string;
  customDomain: string | null;
}

/** The browser token ties this browser to the emailed link, so opening the link here grants access. */
function browserToken(): string {
  const jar = browserCookieJar();
  const existing = jar.get(COOKIE.browserToken);
  if (existing) return existing;
  // crypto.randomUUID() exists only in secure contexts; a custom domain may be plain HTTP.
  const token = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  jar.set(cookieToSet(COOKIE.browserToken, token, { slug: null, customDomain: null }));
  return token;
}

export default function RestrictedForm({ slug, customDomain }: RestrictedFormProps) {
  const [attempted, setAttempted] = useState(false);
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const confirmation = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (sentTo !== null) confirmation.current?.focus();
  }, [sentTo]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    // The field hands its value over 20 ms after typing stops; the form element has it now.
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    if (!validate(email, EMAIL_RULES, { name: 'email', label: 'Email' }).valid) {
      setAttempted(true);
      event.currentTarget.querySelector<HTMLInputElement>('input[name="email"]')?.focus();
      return;
    }
    setSending(true);
    try {
      const api = createApiClient({ baseUrl: publicApiBaseUrl(), cookies: browserCookieJar() });
      await api.verifyAllowedUser(slug, { email, browser_token: browserToken() }, customDomain);
      setSentTo(email);
    } catch (error) {
      const { title, message } = notificationFor(error);
      setFailure(`${title}: ${message}`);
    } finally {
      setSending(false);
    }
  }

  if (sentTo !== null) {
    return (
      <div ref={confirmation} tabIndex={-1} role="status">
        <h2>Check your inbox</h2>
        <p>
          If <strong>{sentTo}</strong> is on this store's list, a sign-in link is on its way. Open it in this browser to
          enter the store.
        </p>
      </div>
    );
  }

  return (
    <form className="restricted__form" noValidate onSubmit={onSubmit}>
      <TextField
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        maxLength={254}
        rules={EMAIL_RULES}
        showErrors={attempted}
      />
      <button type="submit" className="button" disabled={sending}>
        Send me a link
      </button>
      {failure && (
        <div className="alert alert--error" role="alert">
          {failure}
        </div>
      )}
    </form>
  );
}
