// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { Checkbox, CountrySelect, Field, StateSelect, TextField, Tooltip } from '../../../src/islands/forms/index.ts';
import type { CountryRegions } from '../../../src/lib/countries.ts';

// Icons (src/lib/icon-loader.ts) ask for their files; there is no server here, so none is found.
beforeEach(() =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('', { status: 404 })),
  ),
);
afterEach(() => vi.unstubAllGlobals());

// A small fixture instead of the whole package: the selects take the data as a prop.
const COUNTRIES: CountryRegions[] = [
  {
    countryName: 'United States',
    countryShortCode: 'US',
    regions: [
      { name: 'California', shortCode: 'CA' },
      { name: 'Colorado', shortCode: 'CO' },
    ],
  },
  {
    countryName: 'Canada',
    countryShortCode: 'CA',
    regions: [
      { name: 'Ontario', shortCode: 'ON' },
      { name: 'Quebec', shortCode: 'QC' },
    ],
  },
  { countryName: 'Colombia', countryShortCode: 'CO', regions: [{ name: 'Antioquia', shortCode: 'ANT' }] },
];

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('TextField', () => {
  test('hands the typed value on 20 ms after the last keystroke', () => {
    const onValueChange = vi.fn();
    render(<TextField name="city" label="City" onValueChange={onValueChange} />);
    fireEvent.change(screen.getByLabelText('City'), { target: { value: 'Bos' } });
    act(() => {
      vi.advanceTimersByTime(19);
    });
    expect(onValueChange).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onValueChange).toHaveBeenCalledWith('Bos');
  });

  test('hands the value on at once when the field is left', () => {
    const onValueChange = vi.fn();
    render(<TextField name="city" label="City" onValueChange={onValueChange} />);
    fireEvent.change(screen.getByLabelText('City'), { target: { value: 'Boston' } });
    fireEvent.blur(screen.getByLabelText('City'));
    expect(onValueChange).toHaveBeenCalledWith('Boston');
  });

  test('shows its message only after blur', () => {
    render(<TextField name="zip" label="ZIP" rules="required" />);
    expect(screen.queryByText('ZIP is required.')).toBeNull();
    fireEvent.blur(screen.getByLabelText(/ZIP/));
    expect(screen.getByText('ZIP is required.')).toBeTruthy();
    expect(screen.getByLabelText(/ZIP/).getAttribute('aria-invalid')).toBe('true');
  });

  test('shows messages before blur when the form asks (after a submit attempt)', () => {
    render(<TextField name="first_name" label="First name" rules="required" showErrors />);
    expect(screen.getByText('First name is required.')).toBeTruthy();
  });

  test('a server message replaces the rules’ message', () => {
    render(<TextField name="email" label="Email" rules="email" error="Email has already been taken" />);
    expect(screen.getByText('Email has already been taken')).toBeTruthy();
  });
});

describe('Field', () => {
  test("names its hint, and its message while one shows, in the control's aria-describedby", () => {
    render(<TextField name="zip" label="ZIP" rules="required" hint="5 digits in the US" showErrors />);
    const input = screen.getByLabelText('ZIP *');
    const described = (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(['ZIP is required.', '5 digits in the US']);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-required')).toBe('true');
  });

  test('a control without a message is neither invalid nor described by one', () => {
    render(<TextField name="city" label="City" hint="Where the parcel goes" />);
    const input = screen.getByLabelText('City');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Where the parcel goes',
    );
  });

  test('a control labelled inside its own frame gets a visual label and an announced message', () => {
    render(
      <Field label="Card number" labelPlacement="visual" error="Your card number is incomplete." announceError>
        {() => <div data-testid="frame" />}
      </Field>,
    );
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Your card number is incomplete.');
  });
});

describe('Checkbox', () => {
  test('shows its message as soon as it changes', () => {
    render(<Checkbox name="terms" label="Terms" rules="accepted" defaultChecked />);
    expect(screen.queryByText('Please accept the Terms.')).toBeNull();
    fireEvent.click(screen.getByLabelText('Terms'));
    expect(screen.getByText('Please accept the Terms.')).toBeTruthy();
  });
});

describe('searchable selects', () => {
  test('the country select has its placeholder and filters 300 ms after typing', () => {
    render(<CountrySelect value={null} onChange={() => {}} countries={COUNTRIES} />);
    const input = screen.getByRole('combobox', { name: 'Country' });
    expect(input.getAttribute('placeholder')).toBe('Select country');
    fireEvent.click(input);
    expect(screen.getAllByRole('option')).toHaveLength(3);
    fireEvent.change(input, { target: { value: 'can' } });
    act(() => {
      vi.advanceTimersByTime(299);
    });
    expect(screen.getAllByRole('option')).toHaveLength(3);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Canada']);
  });

  test('enter right after typing picks the first match without waiting for the filter', () => {
    const onChange = vi.fn();
    render(<CountrySelect value={null} onChange={onChange} countries={COUNTRIES} />);
    const input = screen.getByRole('combobox', { name: 'Country' });
    fireEvent.change(input, { target: { value: 'colo' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith('CO');
  });

  test('the state select offers the chosen country’s regions and is required', () => {
    render(<StateSelect country="CA" value={null} onChange={() => {}} countries={COUNTRIES} />);
    const input = screen.getByRole('combobox', { name: 'State' });
    expect(input.getAttribute('placeholder')).toBe('State *');
    expect(input.getAttribute('aria-required')).toBe('true');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Ontario', 'Quebec']);
    fireEvent.blur(input);
    expect(screen.getByText('State is required.')).toBeTruthy();
  });

  test('a state the new country does not have is cleared', () => {
    const onChange = vi.fn();
    const { rerender } = render(<StateSelect country="US" value="CA" onChange={onChange} countries={COUNTRIES} />);
    expect(onChange).not.toHaveBeenCalled();
    rerender(<StateSelect country="CA" value="CA" onChange={onChange} countries={COUNTRIES} />);
    expect(onChange).toHaveBeenCalledWith('');
  });

  test('arrow keys move the active option and escape closes the list', () => {
    const onChange = vi.fn();
    render(<CountrySelect value="US" onChange={onChange} countries={COUNTRIES} />);
    const input = screen.getByRole('combobox', { name: 'Country' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    const active = document.getElementById(input.getAttribute('aria-activedescendant') ?? '');
    expect(active?.textContent).toBe('Canada');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('Tooltip', () => {
  test('hides 200 ms after the pointer leaves', () => {
    render(
      <Tooltip text="We only call about your order">
        <button type="button">Why?</button>
      </Tooltip>,
    );
    const trigger = screen.getByRole('button', { name: 'Why?' });
    fireEvent.mouseEnter(trigger.parentElement!);
    expect(screen.getByRole('tooltip').hidden).toBe(false);
    fireEvent.mouseLeave(trigger.parentElement!);
    act(() => {
      vi.advanceTimersByTime(199);
    });
    expect(screen.getByRole('tooltip', { hidden: true }).hidden).toBe(false);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole('tooltip', { hidden: true }).hidden).toBe(true);
  });
});
