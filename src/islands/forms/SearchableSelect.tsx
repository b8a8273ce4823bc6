import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { FieldResult, RuleSet } from '../../lib/validation/index.ts';
import { listKeyAction } from '../../lib/phone/list-keys.ts';
import { Icon } from '../Icon.tsx';
import { Field } from './Field.tsx';
import { hasRequiredRule, useFieldValidation } from './use-field-validation.ts';
import './forms.css';

/** Typing in a select filters its options this long after the last key (spec §9). */
export const SELECT_FILTER_DEBOUNCE_MS = 300;

export type SelectOption = { value: string; label: string };

export type SearchableSelectProps = {
  name: string;
  label: string;
  placeholder: string;
  options: readonly SelectOption[];
  value: string | null;
  onChange: (value: string) => void;
  rules?: RuleSet;
  showErrors?: boolean;
  error?: string;
  onValidity?: (result: FieldResult) => void;
  disabled?: boolean;
  id?: string;
  className?: string;
  /** Text shown in the open list when nothing matches. */
  emptyText?: string;
  /** The input took focus (a select whose options load on first use starts loading them). */
  onFocus?: () => void;
};

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

export function filterOptions(options: readonly SelectOption[], query: string): SelectOption[] {
  const q = fold(query);
  if (q === '') return [...options];
  const starts = options.filter((option) => fold(option.label).startsWith(q) || fold(option.value) === q);
  const contains = options.filter((option) => !starts.includes(option) && fold(option.label).includes(q));
  return [...starts, ...contains];
}

/**
 * An editable combobox (WAI-ARIA combobox with listbox popup): type to filter, arrows to move,
 * Enter or a click to choose, Escape to close. A hidden input carries `name` for plain form posts.
 */
export function SearchableSelect(props: SearchableSelectProps) {
  const generatedId = useId();
  const id = props.id ?? `select-${generatedId}`;
  const listId = `${id}-listbox`;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(-1);
  const filterTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const listRef = useRef<HTMLUListElement>(null);

  const selected = props.options.find((option) => option.value === props.value) ?? null;
  const filtered = useMemo(() => filterOptions(props.options, filter), [props.options, filter]);
  const { message, touch } = useFieldValidation(props.value ?? '', props.rules, {
    name: props.name,
    label: props.label,
    showErrors: props.showErrors,
    error: props.error,
    onValidity: props.onValidity,
  });
  const required = hasRequiredRule(props.rules);

  useEffect(
    () => () => {
      if (filterTimer.current) clearTimeout(filterTimer.current);
    },
    [],
  );
  useEffect(() => {
    if (!open || active < 0) return;
    const option = listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the DOM of the unit tests has no scrollIntoView
    option?.scrollIntoView?.({ block: 'nearest' });
  }, [open, active]);

  const openList = () => {
    if (props.disabled) return;
    setOpen(true);
    setActive(
      Math.max(
        0,
        filtered.findIndex((option) => option.value === props.value),
      ),
    );
  };
  const close = () => {
    setOpen(false);
    setQuery(null);
    setFilter('');
    setActive(-1);
    if (filterTimer.current) clearTimeout(filterTimer.current);
  };
  const choose = (option: SelectOption | undefined) => {
    if (!option) return;
    props.onChange(option.value);
    close();
  };

  return (
    <Field
      label={props.label}
      required={required}
      error={message}
      id={id}
      className={['sf-select', props.className].filter(Boolean).join(' ')}
    >
      {(aria) => (
        <>
          <div className="sf-select__control">
            <input
              {...aria}
              className="sf-field__input sf-select__input"
              type="text"
              role="combobox"
              autoComplete="off"
              aria-autocomplete="list"
              aria-expanded={open}
              aria-controls={listId}
              aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
              placeholder={props.placeholder}
              disabled={props.disabled}
              value={query ?? selected?.label ?? ''}
              onFocus={props.onFocus}
              onClick={() => (open ? undefined : openList())}
              onChange={(event) => {
                const text = event.currentTarget.value;
                setQuery(text);
                setOpen(true);
                setActive(0);
                if (filterTimer.current) clearTimeout(filterTimer.current);
                filterTimer.current = setTimeout(() => {
                  setFilter(text);
                  setActive(0);
                }, SELECT_FILTER_DEBOUNCE_MS);
              }}
              onKeyDown={(event) => {
                if (!open) {
                  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                    event.preventDefault();
                    openList();
                  }
                  return;
                }
                // Enter right after typing must act on what was typed, not on the debounced list.
                const current = query !== null && query !== filter ? filterOptions(props.options, query) : filtered;
                const action = listKeyAction(event.key, Math.min(active, current.length - 1), current.length);
                if (event.key === ' ') return; // a space is text in a searchable input
                if (action.type === 'move') {
                  event.preventDefault();
                  if (current !== filtered) setFilter(query ?? '');
                  setActive(action.index);
                } else if (action.type === 'select') {
                  event.preventDefault();
                  choose(current[action.index]);
                } else if (action.type === 'close') {
                  if (action.restoreFocus) event.preventDefault();
                  close();
                }
              }}
              onBlur={() => {
                close();
                touch();
              }}
            />
            <Icon name="chevron-down" className="sf-select__arrow" />
          </div>
          <ul
            id={listId}
            ref={listRef}
            role="listbox"
            aria-label={props.label}
            className="sf-select__list"
            hidden={!open}
          >
            {open && filtered.length === 0 ? (
              <li className="sf-select__empty" role="presentation">
                {props.emptyText ?? 'No matches'}
              </li>
            ) : null}
            {open
              ? filtered.map((option, index) => (
                  // The combobox input takes the keys (aria-activedescendant); the option needs only the click.
                  // eslint-disable-next-line jsx-a11y/click-events-have-key-events
                  <li
                    key={`${option.value}-${index}`}
                    id={`${listId}-${index}`}
                    data-index={index}
                    role="option"
                    aria-selected={option.value === props.value}
                    className={['sf-select__option', index === active ? 'is-active' : ''].filter(Boolean).join(' ')}
                    // Keep focus in the input so its blur does not close the list before the click lands.
                    onMouseDown={(event) => event.preventDefault()}
                    onMouseEnter={() => setActive(index)}
                    onClick={() => choose(option)}
                  >
                    {option.label}
                  </li>
                ))
              : null}
          </ul>
          <input type="hidden" name={props.name} value={props.value ?? ''} />
        </>
      )}
    </Field>
  );
}
