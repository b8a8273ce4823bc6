import { useEffect, useMemo } from 'react';
import { regionValue, regionsOf } from '../../lib/countries.ts';
import type { RuleSet } from '../../lib/validation/index.ts';
import { SearchableSelect } from './SearchableSelect.tsx';
import { useCountryData, type CountryDataSelectProps } from './use-country-data.ts';

export type StateSelectProps = CountryDataSelectProps & {
  /** Two-letter code of the chosen country; the options are its regions. */
  country: string | null;
  /** Selected region: its shortCode, or its name when it has none. */
  value: string | null;
  onChange: (region: string) => void;
  /** Defaults to 'required' (spec §5: the state field is required). */
  rules?: RuleSet;
};

/**
 * Searchable, required state dropdown whose options follow the chosen country (spec §2).
 * A value that the new country does not have is cleared (onChange('')).
 */
export function StateSelect(props: StateSelectProps) {
  // Without a country there are no regions to offer (the field is off), so nothing to load yet.
  const countries = useCountryData(props.countries, Boolean(props.country));
  const options = useMemo(
    () => regionsOf(countries, props.country).map((region) => ({ value: regionValue(region), label: region.name })),
    [countries, props.country],
  );
  const { value, onChange } = props;
  useEffect(() => {
    // Wait for the data before judging the value, or a preset state would be wiped on load.
    if (countries.length === 0 || !value) return;
    if (!options.some((option) => option.value === value)) onChange('');
  }, [countries.length, options, value, onChange]);
  return (
    <SearchableSelect
      name={props.name ?? 'state'}
      label={props.label ?? 'State'}
      placeholder={props.placeholder ?? 'State *'}
      options={options}
      value={props.value}
      onChange={props.onChange}
      // A country without regions cannot satisfy 'required'; the field is then off and optional.
      rules={options.length === 0 ? undefined : (props.rules ?? 'required')}
      showErrors={props.showErrors}
      error={props.error}
      onValidity={props.onValidity}
      disabled={props.disabled || options.length === 0}
      id={props.id}
      className="sf-state-select"
      emptyText="No matching state"
    />
  );
}
