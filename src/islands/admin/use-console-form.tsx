/** One way for the console's forms to call the API and show what came of it: a notice, or messages by field. */
import { useState, type ReactNode, type SubmitEvent } from 'react';
import { ConsoleError } from '../../lib/api-client/console-api.ts';

export type Notice = { ok: boolean; text: string; status?: number };

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A submitted form's values, the browser's own submission stopped: the console sends them itself. */
export function submittedData(event: SubmitEvent<HTMLFormElement>): FormData {
  event.preventDefault();
  return new FormData(event.currentTarget);
}

/** A form field's value as typed ('' when absent). */
export function textOf(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}

/** The outcome of a console call, shown as a status (done) or an alert (refused). */
export function NoticeLine({ notice, children }: { notice: Notice | null; children?: ReactNode }) {
  if (!notice) return null;
  return (
    <div className={notice.ok ? 'alert' : 'alert alert--error'} role={notice.ok ? 'status' : 'alert'}>
      {notice.text}
      {children ? <> {children}</> : null}
    </div>
  );
}

/**
 * A console form's state: `submit` clears the last outcome, runs the call, then shows `done(answer)`
 * and renews the form (`formKey`), or the refusal with a 422's messages next to their fields.
 */
export function useConsoleForm(initial: Notice | null = null) {
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [notice, setNotice] = useState<Notice | null>(initial);
  const [formKey, setFormKey] = useState(0);
  /** A call is under way: its submit button waits (a double click saves once). */
  const [busy, setBusy] = useState(false);

  async function submit<T>(action: () => Promise<T>, done: (answer: T) => string | null): Promise<void> {
    setErrors({});
    setNotice(null);
    setBusy(true);
    try {
      const answer = await action();
      const text = done(answer);
      if (text !== null) setNotice({ ok: true, text });
      setFormKey((key) => key + 1);
    } catch (error) {
      if (error instanceof ConsoleError) setErrors(error.errors);
      setNotice({
        ok: false,
        text: messageOf(error),
        ...(error instanceof ConsoleError ? { status: error.status } : {}),
      });
    } finally {
      setBusy(false);
    }
  }

  /** `error` props for a field: the server's first message for `key`, if any. */
  const errorOf = (key: string): { error?: string } => {
    const first = errors[key]?.[0];
    return first ? { error: first } : {};
  };

  /** `error` props for a group of fields: the first message for `key` or any field inside it (`key.…`). */
  const errorUnder = (key: string): { error?: string } => {
    const found = Object.entries(errors).find(([field]) => field === key || field.startsWith(`${key}.`));
    const first = found?.[1][0];
    return first ? { error: first } : {};
  };

  return { notice, setNotice, formKey, busy, submit, errorOf, errorUnder };
}
