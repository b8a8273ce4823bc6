import { useMemo, useState } from 'react';
import { SearchableSelect } from './SearchableSelect.tsx';
import { useCountryData, type CountryDataSelectProps } from './use-country-data.ts';

export type CountrySelectProps = CountryDataSelectProps & {
  /** Selected two-letter code ('US'), or null/'' for none. */
  value: string | null;
  onChange: (countryShortCode: string) => void;
};

/** Searchable country dropdown (spec §2): placeholder 'Select country', United States first. */
export function CountrySelect(props: CountrySelectProps) {
  // The list is needed to show a chosen country's name, or once the shopper is on the select.
  const [used, setUsed] = useState(false);
  const countries = useCountryData(props.countries, used || Boolean(props.value));
  const options = useMemo(
    () => countries.map((country) => ({ value: country.countryShortCode, label: country.countryName })),
    [countries],
  );
  return (
    <SearchableSelect
      name={props.name ?? 'country'}
      label={props.label ?? 'Country'}
      placeholder={props.placeholder ?? 'Select country'}
      options={options}
      value={props.value}
      onChange={props.onChange}
      rules={props.rules}
      showErrors={props.showErrors}
      error={props.error}
      onValidity={props.onValidity}
      disabled={props.disabled}
      id={props.id}
      className="sf-country-select"
      onFocus={() => setUsed(true)}
    />
  );
}
