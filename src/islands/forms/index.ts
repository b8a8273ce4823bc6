/**
 * Form controls for checkout and the restricted-store form (spec §2, §5, §9).
 * Every control renders through <Field> (label, hint, message and their aria wiring), shows rule
 * messages on blur (checkboxes: on change),
 * and takes `showErrors` (reveal messages after a submit attempt) and `error` (a server 422 message).
 * Rules are data from src/lib/validation: `'required|email'` or `['required', ['length', 2, 40]]`.
 *
 *   import { TextField, Checkbox, CountrySelect, StateSelect, PhoneInput } from '../islands/forms/index.ts';
 *   // A page that needs one control should import its file (../islands/forms/TextField.tsx): this barrel
 *   // also pulls in the phone widget and its stylesheet.
 *
 *   <Field label="Card number" error={message}>{(aria) => <input {...aria} />}</Field>
 *     // a control of its own: spread `aria` (id, aria-invalid, aria-describedby, aria-required) on it;
 *     // props: label, required, hint, error, labelPlacement ('before' | 'after' | 'visual'), announceError, id
 *   <TextField name="first_name" label="First name" rules="required" value={v} onValueChange={set} />
 *     props: name, label, value | defaultValue, onValueChange(value) (20 ms after typing, at once on blur),
 *            rules, form (all values, for confirm/require_one), messages, showErrors, error, hint, onValidity(result),
 *            type ('text' | 'email' | …), placeholder, autoComplete, inputMode, maxLength, disabled, id, delay
 *   <Checkbox name="terms" label="I accept the terms" rules="accepted" onCheckedChange={…} />
 *   <CountrySelect value={country} onChange={setCountry} />         // 'US'; placeholder 'Select country'
 *   <StateSelect country={country} value={state} onChange={setState} />  // required, placeholder 'State *';
 *        // value = region shortCode (or name when it has none); cleared via onChange('') when the country changes.
 *        // Both selects load the country data lazily; pass `countries` (from loadCountries()) to share it.
 *   <PhoneInput onChange={(phone) => …} onValidity={(result) => …} required />
 *        // phone: { raw, country, countryCode, formatted, valid, possible, nationalNumber, error }
 *        //   (valid = the number; onValidity = the field: an empty optional phone is valid)
 *        // props: name ('telephone'), label ('Phone'), defaultCountry ('US'), preferredCountries (['US']),
 *        //   onlyCountries, ignoredCountries, autoDefaultCountry (true; PUBLIC_GEOIP_URL or geoIpUrl),
 *        //   displayMode ('auto'), autoFormat (true), showFlags (true), restrictCharacters, customPattern, maxExtensionLength (20),
 *        //   placeholder ('Enter a phone number'), maxLength (25), invalidMessage, showErrors, error, disabled
 *   <Tooltip text="Why we ask">…</Tooltip>                          // hides 200 ms after leave/blur
 *   <FormMessage message={attempted ? formMessage(fieldResults) : null} />  // from ./FormMessage.tsx; 'Form incomplete.' / 'Sorry, …'
 *
 * Server code validates the same values with validateForm() from src/lib/validation and
 * parsePhone() from src/lib/phone — no React needed there.
 */
export { Field } from './Field.tsx';
export { TextField } from './TextField.tsx';
export { Checkbox } from './Checkbox.tsx';
export { CountrySelect } from './CountrySelect.tsx';
export { StateSelect } from './StateSelect.tsx';
export { PhoneInput } from './PhoneInput.tsx';
export type { PhoneValue } from './PhoneInput.tsx';
export { Tooltip } from './Tooltip.tsx';
