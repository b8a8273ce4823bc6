/** The console's sign-in form: an emailed one-time link; the same confirmation for any address. */
import { useState, type SubmitEvent } from 'react';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { formMessage, type FieldResult } from '../../lib/validation/index.ts';
import { validEmailEntry } from '../forms/email-entry.ts';
import { FormMessage } from '../forms/FormMessage.tsx';
import { EmailField } from '../forms/EmailField.tsx';
import { LinkSent } from '../forms/LinkSent.tsx';

export function SignInForm() {
  const [attempted, setAttempted] = useState(false);
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [emailResult, setEmailResult] = useState<FieldResult | undefined>();

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = validEmailEntry(event.currentTarget);
    setAttempted(email === null);
    if (email === null) return;
    setFailure(null);
    setSending(true);
    const sent = await consoleApi.requestSignIn(email).then(
      () => true,
      (error: unknown) => {
        setFailure(error instanceof Error ? error.message : String(error));
        return false;
      },
    );
    setSending(false);
    if (!sent) return;
    setSentTo(email);
  }

  if (sentTo !== null) {
    return (
      <LinkSent heading="Check your email" className="console__panel" onAnotherAddress={() => setSentTo(null)}>
        If <strong>{sentTo}</strong> belongs to a store’s staff, a sign-in link is on its way. It works once, within 15
        minutes.
      </LinkSent>
    );
  }

  return (
    <form className="console__form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <EmailField showErrors={attempted} onValidity={setEmailResult} />
      <FormMessage message={attempted ? formMessage([emailResult]) : null} />
      <button type="submit" className="button button--primary" disabled={sending}>
        Email me a sign-in link
      </button>
      {failure && (
        <div className="alert alert--error" role="alert">
          {failure}
        </div>
      )}
    </form>
  );
}
