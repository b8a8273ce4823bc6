import { EMAIL_RULES } from './email-entry.ts';
import { TextField, type TextFieldProps } from './TextField.tsx';

type EmailFieldProps = Omit<TextFieldProps, 'name' | 'label' | 'type' | 'inputMode' | 'maxLength' | 'rules'>;

/**
 * The `email` field of a form that sends someone a link (the restricted store's, the console's sign-in
 * and invitations): one set of rules, length and keyboard, read back by validEmailEntry.
 */
export function EmailField(props: EmailFieldProps) {
  return (
    <TextField
      name="email"
      label="Email"
      type="email"
      autoComplete="email"
      inputMode="email"
      maxLength={254}
      rules={EMAIL_RULES}
      {...props}
    />
  );
}
