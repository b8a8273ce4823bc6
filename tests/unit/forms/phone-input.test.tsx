// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { PhoneInput, type PhoneValue } from '../../../src/islands/forms/index.ts';
import type { FieldResult } from '../../../src/lib/validation/index.ts';

afterEach(cleanup);
// Icons (src/lib/icon-loader.ts) ask for their files; there is no server here, so none is found.
beforeEach(() =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('', { status: 404 })),
  ),
);
afterEach(() => vi.unstubAllGlobals());

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

  test('reports the parsed number as it is typed, read with the selected country', async () => {
    const onChange = vi.fn<(phone: PhoneValue) => void>();
    render(<PhoneInput autoDefaultCountry={false} defaultCountry="GB" onChange={onChange} />);
    const input = screen.getByLabelText<HTMLInputElement>('Phone');
    input.value = '020 7946 0958';
    fireEvent.input(input);
    await waitFor(() =>
      expect(lastCall(onChange)).toMatchObject({
        country: 'GB',
        countryCode: '44',
        nationalNumber: '2079460958',
        valid: true,
        formatted: '020 7946 0958',
      }),
    );
  });

  test('a number typed before the parser has loaded is neither valid nor wrong until it has', async () => {
    const onChange = vi.fn<(phone: PhoneValue) => void>();
    const onValidity = vi.fn<(result: FieldResult) => void>();
    render(<PhoneInput autoDefaultCountry={false} required onChange={onChange} onValidity={onValidity} />);
    expect(lastCall(onChange)).toMatchObject({ raw: '', country: 'US', valid: false, error: 'not_a_number' });
    const input = screen.getByRole<HTMLInputElement>('textbox', { name: /^Phone/ });
    input.value = '(213) 373-4253';
    // Autofill fills the field without focusing it first: the input alone loads the parser.
    fireEvent.input(input);
    fireEvent.blur(input);
    expect(lastCall(onValidity)).toEqual({ valid: false, missing: false, errors: [] });
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(lastCall(onValidity)).toMatchObject({ valid: true }));
    expect(lastCall(onChange)).toMatchObject({ raw: '(213) 373-4253', country: 'US', valid: true });
  });

  test('a filled but invalid number shows the invalid message after blur', async () => {
    render(<PhoneInput autoDefaultCountry={false} />);
    const input = screen.getByLabelText<HTMLInputElement>('Phone');
    fireEvent.focus(input);
    input.value = '12';
    fireEvent.input(input);
    expect(screen.queryByText('Please enter a valid phone number.')).toBeNull();
    fireEvent.blur(input);
    expect(await screen.findByText('Please enter a valid phone number.')).toBeTruthy();
  });

  test('a number from an ignored country is invalid', async () => {
    const onChange = vi.fn<(phone: PhoneValue) => void>();
    render(<PhoneInput autoDefaultCountry={false} ignoredCountries={['GB']} onChange={onChange} />);
    const input = screen.getByLabelText<HTMLInputElement>('Phone');
    input.value = '+44 20 7946 0958';
    fireEvent.input(input);
    await waitFor(() => expect(lastCall(onChange)).toMatchObject({ country: 'GB', valid: false }));
  });

  test('the country list asked for before the libraries have loaded opens once they have', async () => {
    render(<PhoneInput autoDefaultCountry={false} />);
    const button = screen.getByRole('button', { name: 'Phone country: United States' });
    fireEvent.click(button);
    const list = await screen.findByRole('listbox', { name: 'Country calling codes' });
    await waitFor(() => expect(list.hidden).toBe(false));
    expect(screen.getAllByRole('option')[0]?.textContent).toContain('United States');
  });

  test('a shipping country to follow is taken once the list confirms it', async () => {
    const { rerender } = render(<PhoneInput autoDefaultCountry={false} />);
    rerender(<PhoneInput autoDefaultCountry={false} followCountry="FR" />);
    expect(await screen.findByRole('button', { name: 'Phone country: France' })).toBeTruthy();
    // A code the dial-code list does not have is not followed.
    rerender(<PhoneInput autoDefaultCountry={false} followCountry="AQ" />);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.getByRole('button', { name: 'Phone country: France' })).toBeTruthy();
  });
});

describe('PhoneInput country by IP', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    document.head.querySelector('meta[name="geoip-url"]')?.remove();
  });

  test('the lookup URL the page carries (set when the server runs, not when it was built) is asked', async () => {
    const meta = document.createElement('meta');
    meta.name = 'geoip-url';
    meta.content = 'https://geo.test/ip';
    document.head.append(meta);
    const fetch = vi
      .mocked(globalThis.fetch)
      .mockImplementation(async (url) =>
        url === 'https://geo.test/ip' ? new Response('1;GB;GBR;United Kingdom') : new Response('', { status: 404 }),
      );
    render(<PhoneInput />);
    expect(await screen.findByRole('button', { name: 'Phone country: United Kingdom' })).toBeTruthy();
    expect(fetch).toHaveBeenCalledWith('https://geo.test/ip', expect.objectContaining({ method: 'GET' }));
  });

  test('without a lookup URL anywhere nothing is asked and the first preferred country stays', async () => {
    render(<PhoneInput preferredCountries={['CA']} defaultCountry="US" />);
    expect(await screen.findByRole('button', { name: 'Phone country: Canada' })).toBeTruthy();
    const asked = vi.mocked(globalThis.fetch).mock.calls.map(([url]) => String(url));
    expect(asked.filter((url) => !url.startsWith('/icons/'))).toEqual([]);
  });
});
