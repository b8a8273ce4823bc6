import './forms.css';

export type FormMessageProps = {
  /** From `formMessage()` of src/lib/validation; nothing is shown for null. */
  message: string | null;
};

/** The form-level message of spec §5 ('Form incomplete.' …), shown beside the fields' own after a submit attempt. */
export function FormMessage({ message }: FormMessageProps) {
  return message ? (
    <p className="sf-form-message" role="alert">
      {message}
    </p>
  ) : null;
}
