import { validate } from '../../lib/validation/index.ts';

export const EMAIL_RULES = 'required|email';

/**
 * The trimmed `email` entry of a submitted form when it is a valid address; otherwise null, with the
 * field focused so its message is read out.
 */
export function validEmailEntry(form: HTMLFormElement): string | null {
  // The field hands its value over 20 ms after typing stops; the form element has it now.
  const entry = new FormData(form).get('email');
  const email = typeof entry === 'string' ? entry.trim() : '';
  if (validate(email, EMAIL_RULES, { name: 'email', label: 'Email' }).valid) return email;
  form.querySelector<HTMLInputElement>('input[name="email"]')?.focus();
  return null;
}
