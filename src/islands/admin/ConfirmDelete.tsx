/**
 * A delete button that asks once more, in the page rather than in a browser dialog (which a screen
 * reader or a test may dismiss unseen), then goes to `then` when the API has deleted.
 */
import { useState } from 'react';
import { NoticeLine, useConsoleForm } from './use-console-form.tsx';

type ConfirmDeleteProps = {
  /** The first button, e.g. "Delete this bundle". */
  label: string;
  /** What the second question says will happen. */
  question: string;
  remove(): Promise<{ message: string }>;
  /** Where to go once deleted: the list the record was in. */
  then: string;
};

export function ConfirmDelete({ label, question, remove, then }: ConfirmDeleteProps) {
  const [asked, setAsked] = useState(false);
  const { notice, busy, submit } = useConsoleForm();
  const onConfirm = () =>
    void submit(remove, (answer) => {
      location.assign(then);
      return answer.message;
    });
  return (
    <>
      <NoticeLine notice={notice} />
      {asked ? (
        <p className="console__links">
          <span>{question}</span>
          <button type="button" className="button" disabled={busy} onClick={onConfirm}>
            Yes, delete it
          </button>
          <button type="button" className="button" onClick={() => setAsked(false)}>
            Keep it
          </button>
        </p>
      ) : (
        <button type="button" className="button" onClick={() => setAsked(true)}>
          {label}
        </button>
      )}
    </>
  );
}
