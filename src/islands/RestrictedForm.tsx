/**
 * The allowed-users form of a restricted store (spec §1, §7): `POST store_front/{slug}/allowed_users/verify`
 * (`?custom_domain=` on the store's own domain). The confirmation reads the same whether or not the
 * address is listed, so the form never reveals the list.
 */
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { browserRequester, verifyAllowedUser } from '../lib/api-client/index.ts';
import { browserCookieJar, COOKIE, cookieToSet } from '../lib/cookies.ts';
import { notificationFor } from '../lib/error-catalogue.ts';
import { formMessage, type FieldResult } from '../lib/validation/index.ts';
import { validEmailEntry } from './forms/email-entry.ts';
import { FormMessage } from './forms/FormMessage.tsx';
import { EmailField } from './forms/EmailField.tsx';
import { LinkSent } from './forms/LinkSent.tsx';

export type RestrictedFormProps = {
  /** The store's slug, or '-' on a custom domain (the API then finds the store by `customDomain`). */
  slug: string;
  customDomain: string | null;
};

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
  // The last address sent to, kept in the field when the shopper goes back to correct it.
  const [lastEmail, setLastEmail] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [emailResult, setEmailResult] = useState<FieldResult | undefined>();

  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    // Back from the confirmation to correct the address: the field, with it, has the focus.
    if (sentTo === null && lastEmail) form.current?.querySelector<HTMLInputElement>('input[name="email"]')?.focus();
  }, [sentTo, lastEmail]);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    const email = validEmailEntry(event.currentTarget);
    if (email === null) {
      setAttempted(true);
      return;
    }
    setSending(true);
    try {
      await verifyAllowedUser(browserRequester(), slug, { email, browser_token: browserToken() }, customDomain);
      setSentTo(email);
      setLastEmail(email);
    } catch (error) {
      const { title, message } = notificationFor(error);
      setFailure(`${title}: ${message}`);
    } finally {
      setSending(false);
    }
  }

  if (sentTo !== null) {
    return (
      <LinkSent heading="Check your inbox" onAnotherAddress={() => setSentTo(null)}>
        If <strong>{sentTo}</strong> is on this store's list, a sign-in link is on its way. Open it in this browser to
        enter the store.
      </LinkSent>
    );
  }

  return (
    <form ref={form} className="restricted__form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <EmailField defaultValue={lastEmail} showErrors={attempted} onValidity={setEmailResult} />
      <FormMessage message={attempted ? formMessage([emailResult]) : null} />
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
