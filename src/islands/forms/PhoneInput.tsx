import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Iso2, Iti } from 'intl-tel-input';
import 'intl-tel-input/styles';
import { detectCountryByIp } from '../../lib/phone/country-by-ip.ts';
import { dropdownDirection } from '../../lib/phone/dropdown-direction.ts';
import { listKeyAction } from '../../lib/phone/list-keys.ts';
import type { ParsedPhone } from '../../lib/phone/parse-phone.ts';
import { isCountryAllowed, phoneCountryName, type PhoneCountry } from '../../lib/phone/phone-countries.ts';
import { DEFAULT_PHONE_COUNTRY, emptyPhone } from '../../lib/phone/phone-defaults.ts';
import {
  findByPrefix,
  initialTypeToFind,
  isTypeToFindKey,
  spaceContinuesQuery,
  typeToFind,
} from '../../lib/phone/type-to-find.ts';
import { GEOIP_URL_SETTING, readPageSetting } from '../../lib/public-settings.ts';
import { Icon } from '../Icon.tsx';
import { Field } from './Field.tsx';
import { validate, type FieldResult } from '../../lib/validation/index.ts';
import './forms.css';

/** What PhoneInput reports on every change: the parsed number plus what was typed. */
export type PhoneValue = ParsedPhone & { raw: string };

export type PhoneInputProps = {
  /** Defaults of spec §9: name 'telephone', placeholder 'Enter a phone number', maxlength 25. */
  name?: string;
  label?: string;
  placeholder?: string;
  maxLength?: number;
  defaultValue?: string;
  /** Country for numbers typed without + (iso2, any case). Default 'US'. */
  defaultCountry?: string;
  /** Listed first; the first one is also the fallback when the IP lookup fails. Default ['US']. */
  preferredCountries?: readonly string[];
  onlyCountries?: readonly string[];
  ignoredCountries?: readonly string[];
  /** Ask the IP lookup for the default country (spec §9: on). */
  autoDefaultCountry?: boolean;
  /**
   * A country the field follows (iso2, any case; the checkout's shipping country) until the shopper picks
   * one, or types a number with its own `+` code. A saved number keeps its country.
   */
  followCountry?: string | null | undefined;
  /**
   * Lookup URL; defaults to PUBLIC_GEOIP_URL as the server runs (the page's setting), else as it
   * was at build time. Without one the fallback country is used.
   */
  geoIpUrl?: string;
  /** auto | national | international | e.164 | rfc3966 | idd (spec §5). */
  displayMode?: string;
  /** Format while typing (spec §9: on). */
  autoFormat?: boolean;
  showFlags?: boolean;
  restrictCharacters?: boolean;
  customPattern?: RegExp | string;
  /** Longest extension in digits (spec §9: 20). */
  maxExtensionLength?: number;
  required?: boolean;
  /** Message for a filled but invalid number (the spec leaves the wording open). */
  invalidMessage?: string;
  showErrors?: boolean;
  error?: string;
  onChange?: (phone: PhoneValue) => void;
  /** Field-level outcome like the other controls: an empty optional phone is valid, an empty required one is not. */
  onValidity?: (result: FieldResult) => void;
  disabled?: boolean;
  id?: string;
};

export const PHONE_INVALID_MESSAGE = 'Please enter a valid phone number.';

function envGeoIpUrl(): string | undefined {
  // The page's setting is the server's current one; the build-time value may be stale or absent.
  // import.meta.env exists under Vite/Astro only; the component must also run where it does not.
  return (
    readPageSetting(GEOIP_URL_SETTING) ??
    ((import.meta as { env?: Record<string, string | undefined> }).env?.PUBLIC_GEOIP_URL || undefined)
  );
}

type PhoneLibrary = typeof import('./phone-library.ts');
type ItiUtilsModule = typeof import('../../lib/phone/iti-utils.ts');
let libraryLoad: Promise<[PhoneLibrary, ItiUtilsModule]> | null = null;

/**
 * The phone libraries (≈ 55 KB gzip with libphonenumber-js's metadata) load when a phone field is
 * first used, once per page; intl-tel-input's utils in parallel rather than after it
 * (docs/decisions/195-lighter-checkout.md). A failed load is tried again on the next use.
 */
function loadPhoneLibrary(): Promise<[PhoneLibrary, ItiUtilsModule]> {
  libraryLoad ??= Promise.all([import('./phone-library.ts'), import('../../lib/phone/iti-utils.ts')]).catch(
    (error: unknown) => {
      libraryLoad = null;
      throw new Error('The phone field could not load its libraries', { cause: error });
    },
  );
  return libraryLoad;
}

/** A country offered to the field rather than picked: the shipping country, or the IP lookup's (null: the first listed). */
type CountryOffer = { iso2: string | null; from: 'follow' | 'lookup' };

/** A number typed before the parser has loaded is neither valid nor wrong yet: no message, not missing. */
const PENDING_RESULT: FieldResult = { valid: false, missing: false, errors: [] };

/**
 * International phone field: intl-tel-input formats the number as it is typed and follows
 * `+44…` to the right country; the country list is our own listbox, because the spec's
 * dropdown (700 ms type-to-find, space and tab keys, 200 px flip rule) differs from the
 * library's (docs/decisions/010-forms-intl-tel-input-libphonenumber.md).
 */
export function PhoneInput(props: PhoneInputProps) {
  const generatedId = useId();
  const id = props.id ?? `phone-${generatedId}`;
  const listId = `${id}-countries`;
  const label = props.label ?? 'Phone';
  const preferred = props.preferredCountries ?? [DEFAULT_PHONE_COUNTRY];
  const listOptions = {
    onlyCountries: props.onlyCountries,
    ignoredCountries: props.ignoredCountries,
    preferredCountries: preferred,
  };
  // Option arrays are usually literals, new on every render: memoised values depend on their contents.
  const onlyKey = String(props.onlyCountries);
  const ignoredKey = String(props.ignoredCountries);
  const preferredKey = String(preferred);
  const patternKey = String(props.customPattern);
  const [library, setLibrary] = useState<[PhoneLibrary, ItiUtilsModule] | null>(null);
  // Empty until the libraries load: the list is only shown, searched or checked against after that.
  const countries = useMemo(
    () => (library ? library[0].countryList(listOptions) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `listOptions` is rebuilt each render; the keys above stand for it
    [library, onlyKey, ignoredKey, preferredKey],
  );
  const wantedCountry = (props.defaultCountry ?? DEFAULT_PHONE_COUNTRY).toLowerCase();
  /**
   * The plain start (no saved number, the default country, allowed) needs no library; any other is
   * settled against the dial-code list at once, as the field always did.
   */
  const plainStart =
    !props.defaultValue?.trim() &&
    wantedCountry === DEFAULT_PHONE_COUNTRY.toLowerCase() &&
    isCountryAllowed(wantedCountry, listOptions) &&
    preferred.length > 0;

  const [country, setCountry] = useState(wantedCountry);
  const [raw, setRaw] = useState(props.defaultValue ?? '');
  const [open, setOpen] = useState(false);
  const [direction, setDirection] = useState<'up' | 'down'>('down');
  const [active, setActive] = useState(-1);
  const [touched, setTouched] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const rowRef = useRef<HTMLDivElement>(null);
  const itiRef = useRef<Iti | null>(null);
  const typed = useRef(initialTypeToFind);
  const chosenByShopper = useRef(false);
  const onChangeRef = useRef(props.onChange);
  onChangeRef.current = props.onChange;
  const countryRef = useRef(country);
  countryRef.current = country;
  const countriesRef = useRef(countries);
  countriesRef.current = countries;
  const pendingOffer = useRef<CountryOffer | null>(null);
  const pendingOpen = useRef(false);
  const typedEarly = useRef(false);
  /** True while intl-tel-input moves the input in the document: the blur that causes is not the shopper's. */
  const moving = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    // Set here too: StrictMode runs this effect's cleanup and the effect again on a live component.
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  /** Starts loading the libraries (first focus, input or anything that needs the list). */
  function requestLibrary() {
    if (library) return;
    loadPhoneLibrary().then(
      (loaded) => {
        if (mounted.current) setLibrary(loaded);
      },
      (error: unknown) => console.error(error),
    );
  }

  const rules = {
    country,
    onlyCountries: props.onlyCountries,
    ignoredCountries: props.ignoredCountries,
    restrictCharacters: props.restrictCharacters,
    customPattern: props.customPattern,
    displayMode: props.displayMode,
    maxExtensionLength: props.maxExtensionLength,
  };
  // undefined: a number is typed but the parser has not loaded yet.
  const parsed = useMemo(
    () => (raw.trim() === '' ? null : library ? library[0].parsePhone(raw, rules) : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `rules` is rebuilt each render; its option arrays compare by content
    [
      library,
      raw,
      country,
      onlyKey,
      ignoredKey,
      props.restrictCharacters,
      patternKey,
      props.displayMode,
      props.maxExtensionLength,
    ],
  );
  useEffect(() => {
    if (parsed === undefined) return;
    onChangeRef.current?.(parsed ? { ...parsed, raw } : { ...emptyPhone(country), raw: '' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- report when the parsed number changes, not on every render
  }, [parsed]);

  // Any start but the plain one is settled against the list straight away.
  useEffect(() => {
    if (!plainStart) requestLibrary();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- decided once, at mount
  }, []);

  // intl-tel-input owns the typing: formatting as you type and switching country on "+44…".
  useEffect(() => {
    const input = inputRef.current;
    if (!input || !library) return;
    const [{ intlTelInput }, utils] = library;
    // A start country the list does not allow gives way to the first listed one.
    let start = countryRef.current;
    if (!countries.some((entry) => entry.iso2 === start)) {
      start = countries[0]?.iso2 ?? 'us';
      setCountry(start);
    }
    // intl-tel-input wraps the input, which moves it in the document: a shopper already typing in it
    // would lose focus (and be marked as having left the field). Keep their place.
    const focused = document.activeElement === input;
    const { selectionStart, selectionEnd } = input;
    moving.current = true;
    const iti = intlTelInput(input, {
      countrySelectorMode: 'OFF',
      initialCountry: start as Iso2,
      onlyCountries: props.onlyCountries ? (props.onlyCountries.map((code) => code.toLowerCase()) as Iso2[]) : null,
      excludeCountries: props.ignoredCountries
        ? (props.ignoredCountries.map((code) => code.toLowerCase()) as Iso2[])
        : null,
      formatAsYouType: props.autoFormat ?? true,
      separateDialCode: false,
      showFlags: false,
      countrySearch: false,
      // Auto mode (spec §5): a saved '+…' number is shown international, anything else national.
      numberDisplayFormat: props.defaultValue?.trim().startsWith('+') ? 'INTERNATIONAL' : 'NATIONAL',
      placeholderNumberPolicy: 'OFF',
      allowNumberExtensions: true,
      strictMode: false,
      // Already loaded beside intl-tel-input (loadPhoneLibrary).
      loadUtils: () => Promise.resolve(utils),
    });
    moving.current = false;
    if (focused && document.activeElement !== input) {
      input.focus();
      input.setSelectionRange(selectionStart, selectionEnd);
    }
    itiRef.current = iti;
    const onCountryChange = () => {
      // A country the number's own `+` code chose is the shopper's, as if picked from the list.
      if (input.value.trim().startsWith('+')) chosenByShopper.current = true;
      const selected = iti.getSelectedCountry();
      if (selected) setCountry(selected.iso2);
      // The library may reformat the number for the new country without an input event.
      setRaw(input.value);
    };
    input.addEventListener('countrychange', onCountryChange);
    // A number typed before intl-tel-input was there is handed to it as one input, once its utils are
    // ready, so it is formatted and switches country as if typed afterwards.
    let live = true;
    void iti.promise.then(() => {
      if (live && typedEarly.current) input.dispatchEvent(new Event('input', { bubbles: true }));
      typedEarly.current = false;
    });
    // What waited for the list: a country offered meanwhile, the list the shopper asked to open.
    settleOffer();
    if (pendingOpen.current) {
      pendingOpen.current = false;
      openList();
    }
    return () => {
      live = false;
      input.removeEventListener('countrychange', onCountryChange);
      moving.current = true;
      iti.destroy();
      moving.current = false;
      itiRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- set up once the libraries are there; later option changes need a remount (key) like any uncontrolled widget
  }, [library]);

  // Country by IP (spec §7): only until the shopper picks a country or types a number themselves.
  useEffect(() => {
    // A saved number already says its country; the lookup would only fight it.
    if (props.autoDefaultCountry === false || props.defaultValue?.trim()) return;
    let live = true;
    void detectCountryByIp({ url: props.geoIpUrl ?? envGeoIpUrl(), preferredCountries: preferred, countries }).then(
      (result) => {
        if (!live) return;
        // Without preferred countries the fallback is the first listed, which only the list can say.
        const fallbackIsFirstListed = result.source === 'fallback' && preferred.length === 0;
        offerCountry({ iso2: fallbackIsFirstListed ? null : result.country.toLowerCase(), from: 'lookup' });
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one lookup per mount: the answer only seeds the first country
  }, []);

  // The shipping country, until the shopper has a country of their own.
  const follow = props.followCountry?.toLowerCase();
  const savedNumber = useRef(Boolean(props.defaultValue?.trim()));
  const followed = useRef(false);
  useEffect(() => {
    if (!follow || chosenByShopper.current || savedNumber.current) return;
    offerCountry({ iso2: follow, from: 'follow' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follows the country alone; the rest is read as it is then
  }, [follow]);

  /**
   * Takes an offered country if the shopper has none of their own and the list has it. The field's own
   * country needs no list (it is already shown), so only another one makes the libraries load.
   */
  function offerCountry(offer: CountryOffer) {
    if (!library && offer.iso2 === countryRef.current) {
      if (offer.from === 'follow') followed.current = true;
      return;
    }
    pendingOffer.current = offer;
    if (library) settleOffer();
    else requestLibrary();
  }
  /** Applies the offer waiting for the list; reads refs only, as it also runs from the set-up effect. */
  function settleOffer() {
    const offer = pendingOffer.current;
    pendingOffer.current = null;
    // The shipping country, once known, says more about the shopper's phone than their IP address.
    if (!offer || chosenByShopper.current || (offer.from === 'lookup' && followed.current)) return;
    const list = countriesRef.current;
    const iso2 = offer.iso2 ?? list[0]?.iso2;
    if (!iso2 || !list.some((entry) => entry.iso2 === iso2)) return;
    if (offer.from === 'follow') followed.current = true;
    selectCountry(iso2, false);
  }

  useEffect(() => {
    if (!open) return;
    listRef.current?.focus();
  }, [open]);
  useEffect(() => {
    if (!open || active < 0) return;
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the DOM of the unit tests has no scrollIntoView
    listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [open, active]);

  function selectCountry(iso2: string, byShopper: boolean) {
    if (byShopper) chosenByShopper.current = true;
    setCountry(iso2);
    itiRef.current?.setSelectedCountry(iso2 as Iso2);
  }
  function openList() {
    if (props.disabled) return;
    if (!library) {
      pendingOpen.current = true;
      requestLibrary();
      return;
    }
    const rect = rowRef.current?.getBoundingClientRect();
    setDirection(rect ? dropdownDirection(rect, window.innerHeight) : 'down');
    setActive(
      Math.max(
        0,
        countries.findIndex((entry) => entry.iso2 === country),
      ),
    );
    typed.current = initialTypeToFind;
    setOpen(true);
  }
  function closeList(focus: 'button' | 'input' | 'none') {
    setOpen(false);
    if (focus === 'button') buttonRef.current?.focus();
    if (focus === 'input') inputRef.current?.focus();
  }
  function choose(entry: PhoneCountry | undefined) {
    if (!entry) return;
    selectCountry(entry.iso2, true);
    closeList('input');
  }
  function onListKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const now = Date.now();
    const isSpaceInQuery = event.key === ' ' && spaceContinuesQuery(typed.current, now);
    if ((event.key !== ' ' && isTypeToFindKey(event.key)) || isSpaceInQuery) {
      event.preventDefault();
      typed.current = typeToFind(typed.current, event.key, now);
      const index = findByPrefix(countries, typed.current.query);
      if (index >= 0) setActive(index);
      return;
    }
    const action = listKeyAction(event.key, active, countries.length);
    if (action.type === 'move') {
      event.preventDefault();
      setActive(action.index);
    } else if (action.type === 'select') {
      event.preventDefault();
      choose(countries[action.index]);
    } else if (action.type === 'close') {
      // Escape goes back to the flag button; Tab lets focus move on to the number.
      if (action.restoreFocus) event.preventDefault();
      closeList(action.restoreFocus ? 'button' : 'none');
    }
  }

  const selected = countries.find((entry) => entry.iso2 === country);
  const requiredResult = validate(raw, props.required ? 'required' : undefined, {
    name: props.name ?? 'telephone',
    label,
  });
  const fieldResult: FieldResult =
    parsed === undefined
      ? PENDING_RESULT
      : parsed && !parsed.valid
        ? {
            valid: false,
            missing: false,
            errors: [{ rule: 'phone', message: props.invalidMessage ?? PHONE_INVALID_MESSAGE }],
          }
        : requiredResult;
  const message = props.error ?? (touched || props.showErrors ? fieldResult.errors[0]?.message : undefined);
  const onValidityRef = useRef(props.onValidity);
  onValidityRef.current = props.onValidity;
  useEffect(() => {
    onValidityRef.current?.(fieldResult);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- report when the outcome changes, not on every render
  }, [fieldResult.valid, fieldResult.errors[0]?.message]);
  const showFlags = props.showFlags ?? true;

  return (
    <Field label={label} required={props.required} error={message} id={id} className="sf-phone">
      {(aria) => (
        <div className="sf-phone__row" ref={rowRef}>
          <button
            ref={buttonRef}
            type="button"
            className="sf-phone__country"
            aria-haspopup="listbox"
            aria-expanded={open}
            aria-controls={listId}
            aria-label={`Phone country: ${selected?.name ?? (library ? 'none' : phoneCountryName(country))}`}
            disabled={props.disabled}
            onFocus={requestLibrary}
            onClick={() => (open ? closeList('none') : openList())}
            onKeyDown={(event) => {
              if (!open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
                event.preventDefault();
                openList();
              }
            }}
          >
            {showFlags ? (
              <span className={`iti__flag iti__${country}`} aria-hidden="true" />
            ) : (
              <span className="sf-phone__iso">{country.toUpperCase()}</span>
            )}
            <Icon name="chevron-down" className={`sf-phone__arrow${open ? ' is-open' : ''}`} />
          </button>
          <ul
            id={listId}
            ref={listRef}
            role="listbox"
            // Reachable by keyboard while open (it scrolls); hidden, it drops out of the tab order.
            tabIndex={0}
            aria-label="Country calling codes"
            aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
            className={`sf-phone__list sf-phone__list--${direction}`}
            data-direction={direction}
            hidden={!open}
            onKeyDown={onListKeyDown}
            onBlur={(event) => {
              if (!event.currentTarget.parentElement?.contains(event.relatedTarget)) setOpen(false);
            }}
          >
            {open
              ? countries.map((entry, index) => (
                  // The list takes the keys (aria-activedescendant); the option needs only the click.
                  // eslint-disable-next-line jsx-a11y/click-events-have-key-events
                  <li
                    key={entry.iso2}
                    id={`${listId}-${index}`}
                    data-index={index}
                    data-iso2={entry.iso2}
                    role="option"
                    aria-selected={entry.iso2 === country}
                    className={`sf-phone__option${index === active ? ' is-active' : ''}`}
                    onMouseDown={(event) => event.preventDefault()}
                    onMouseEnter={() => setActive(index)}
                    onClick={() => choose(entry)}
                  >
                    {showFlags ? <span className={`iti__flag iti__${entry.iso2}`} aria-hidden="true" /> : null}
                    <span className="sf-phone__name">{entry.name}</span>
                    <span className="sf-phone__dial">+{entry.dialCode}</span>
                  </li>
                ))
              : null}
          </ul>
          <div className="sf-phone__number">
            <input
              ref={inputRef}
              {...aria}
              className="sf-field__input sf-phone__input"
              type="tel"
              name={props.name ?? 'telephone'}
              autoComplete="tel"
              placeholder={props.placeholder ?? 'Enter a phone number'}
              maxLength={props.maxLength ?? 25}
              defaultValue={props.defaultValue}
              disabled={props.disabled}
              onBeforeInput={(event) => {
                const data = event.nativeEvent.data;
                if (props.restrictCharacters && data && !/^[\d\s()+-]*$/.test(data)) event.preventDefault();
              }}
              onFocus={requestLibrary}
              onInput={(event) => {
                // Autofill types without focusing first.
                if (!library) typedEarly.current = true;
                requestLibrary();
                if (event.currentTarget.value.trim() !== '') chosenByShopper.current = true;
                setRaw(event.currentTarget.value);
              }}
              onBlur={(event) => {
                if (moving.current) return;
                setRaw(event.currentTarget.value);
                setTouched(true);
              }}
            />
          </div>
        </div>
      )}
    </Field>
  );
}
