import { useEffect, useState } from 'react';
import { loadCountries, type CountryRegions } from '../../lib/countries.ts';

/** The country/region data: the `countries` prop when given, otherwise loaded on first use. */
export function useCountryData(countries: readonly CountryRegions[] | undefined): readonly CountryRegions[] {
  const [loaded, setLoaded] = useState<readonly CountryRegions[]>(countries ?? []);
  useEffect(() => {
    if (countries) return;
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
  }, [countries]);
  return countries ?? loaded;
}
