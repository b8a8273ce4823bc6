// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { PhoneInput, type PhoneValue } from '../../../src/islands/forms/index.ts';
import type { FieldResult } from '../../../src/lib/validation/index.ts';

afterEach(cleanup);

const lastCall = <T,>(fn: { mock: { calls: T[][] } }): T | undefined => fn.mock.calls.at(-1)?.[0];

describe('PhoneInput', () => {
  test('has the spec’s defaults: name telephone, type tel, maxlength 25, placeholder and US selected', () => {
    render(<PhoneInput autoDefaultCountry={false} />);
    const input = screen.getByLabelText('Phone');
    expect(input.getAttribute('name')).toBe('telephone');
    expect(input.getAttribute('type')).toBe('tel');
    expect(input.getAttribute('maxlength')).toBe('25');
    expect(input.getAttribute('placeholder')).toBe('Enter a phone number');
    expect(screen.getByRole('button', { name: 'Phone country: United States' })).toBeTruthy();
  });

  test('an empty optional phone is valid, an empty required one is not', () => {
    const optional = vi.fn<(result: FieldResult) => void>();
    render(<PhoneInput autoDefaultCountry={false} onValidity={optional} />);
    expect(lastCall(optional)?.valid).toBe(true);
    cleanup();
    const required = vi.fn<(result: FieldResult) => void>();
    render(<PhoneInput autoDefaultCountry={false} required onValidity={required} />);
    expect(lastCall(required)).toMatchObject({ valid: false, errors: [{ message: 'Phone is required.' }] });
  });

  test('reports the parsed number as it is typed, read with the selected country', () => {
    const onChange = vi.fn<(phone: PhoneValue) => void>();
    render(<PhoneInput autoDefaultCountry={false} defaultCountry="GB" onChange={onChange} />);
    const input = screen.getByLabelText('Phone') as HTMLInputElement;
    input.value = '020 7946 0958';
    fireEvent.input(input);
    expect(lastCall(onChange)).toMatchObject({ country: 'GB', countryCode: '44', nationalNumber: '2079460958', valid: true, formatted: '020 7946 0958' });
  });

  test('a filled but invalid number shows the invalid message after blur', () => {
    render(<PhoneInput autoDefaultCountry={false} />);
    const input = screen.getByLabelText('Phone') as HTMLInputElement;
    input.value = '12';
    fireEvent.input(input);
    expect(screen.queryByText('Please enter a valid phone number.')).toBeNull();
    fireEvent.blur(input);
    expect(screen.getByText('Please enter a valid phone number.')).toBeTruthy();
  });

  test('a number from an ignored country is invalid', () => {
    const onChange = vi.fn<(phone: PhoneValue) => void>();
    render(<PhoneInput autoDefaultCountry={false} ignoredCountries={['GB']} onChange={onChange} />);
    const input = screen.getByLabelText('Phone') as HTMLInputElement;
    input.value = '+44 20 7946 0958';
    fireEvent.input(input);
    expect(lastCall(onChange)).toMatchObject({ country: 'GB', valid: false });
  });
});
