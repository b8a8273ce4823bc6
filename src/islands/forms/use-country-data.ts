import { useEffect, useState } from 'react';
import { loadCountries, type CountryRegions } from '../../lib/countries.ts';
import type { SearchableSelectProps } from './SearchableSelect.tsx';

/** What a select over the country data (CountrySelect, StateSelect) passes through to its SearchableSelect. */
export type CountryDataSelectProps = Partial<Pick<SearchableSelectProps, 'name' | 'label' | 'placeholder'>> &
  Pick<SearchableSelectProps, 'rules' | 'showErrors' | 'error' | 'onValidity' | 'disabled' | 'id'> & {
    /** Pass the data when the page already has it; otherwise it is loaded lazily. */
    countries?: readonly CountryRegions[];
  };

/**
 * The country/region data: the `countries` prop when given, otherwise loaded once `needed` (a country
 * is chosen, or the shopper is on the select): ≈ 39 KB gzip a page does not load before its address
 * form is used (docs/decisions/195-lighter-checkout.md).
 */
export function useCountryData(
  countries: readonly CountryRegions[] | undefined,
  needed: boolean,
): readonly CountryRegions[] {
  const [loaded, setLoaded] = useState<readonly CountryRegions[]>(countries ?? []);
  useEffect(() => {
    if (countries || !needed) return;
    let live = true;
    loadCountries().then(
      (data) => {
        if (live) setLoaded(data);
      },
      (error: unknown) => console.error(new Error('Country list failed to load', { cause: error })),
    );
    return () => {
      live = false;
    };
  }, [countries, needed]);
  return countries ?? loaded;
}
