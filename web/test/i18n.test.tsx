import { cleanup, render, screen } from '@testing-library/react';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/api/errors';
import { ErrorNote } from '../src/app/ErrorNote';
import { en } from '../src/i18n/en';
import { es } from '../src/i18n/es';
import { fill, formatDate, nameOf, plural, setLocale } from '../src/i18n/i18n';
import { RoomControls } from '../src/rooms/RoomControls';
import { emptyState } from './fixtures';

afterEach(() => {
  cleanup();
  act(() => setLocale('en'));
});

describe('plurals by Intl.PluralRules', () => {
  it('counts people in English and Spanish', () => {
    expect(plural(0, en.people, 'en')).toBe('0 people');
    expect(plural(1, en.people, 'en')).toBe('1 person');
    expect(plural(2, en.people, 'en')).toBe('2 people');
    expect(plural(1, es.people, 'es')).toBe('1 persona');
    expect(plural(0, es.people, 'es')).toBe('0 personas');
    expect(plural(5, es.people, 'es')).toBe('5 personas');
  });

  it('writes the number as the locale does, and falls back to `other`', () => {
    expect(plural(1_000_000, en.people, 'en')).toBe('1,000,000 people');
    expect(plural(1_000_000, es.people, 'es')).toBe('1.000.000 personas');
    expect(plural(1, { other: '{count} x' }, 'es')).toBe('1 x');
    expect(plural(1, en.minutesUnit, 'en')).toBe('minute');
    expect(plural(10, es.minutesUnit, 'es')).toBe('minutos');
  });
});

describe('dates and times by Intl.DateTimeFormat in the chosen locale', () => {
  // A local time, so the browser's time zone does not matter.
  const moment = new Date(2025, 0, 5, 15, 4);

  it('writes a day, a time and both in English (British, as the strings are) and in Spanish', () => {
    expect(formatDate(moment, 'date', 'en')).toBe('5 Jan 2025');
    expect(formatDate(moment, 'time', 'en')).toBe('15:04');
    expect(formatDate(moment, 'dateTime', 'en')).toBe('5 Jan 2025, 15:04');
    expect(formatDate(moment, 'date', 'es')).toBe('5 ene 2025');
    expect(formatDate(moment, 'dateTime', 'es')).toBe('5 ene 2025, 15:04');
  });

  it('takes ISO strings and epoch ms, and writes nothing for an invalid date', () => {
    expect(formatDate(moment.toISOString(), 'date', 'es')).toBe('5 ene 2025');
    expect(formatDate(moment.getTime(), 'time', 'es')).toBe('15:04');
    expect(formatDate('not a date', 'date', 'es')).toBe('');
  });

  it('follows the chosen locale by default', () => {
    act(() => setLocale('es'));
    expect(formatDate(moment, 'date')).toBe('5 ene 2025');
    expect(plural(1, es.people)).toBe('1 persona');
  });
});

describe('dictionaries', () => {
  it('fill templates and name values, falling back to the value', () => {
    expect(fill(es.afkUntil, { time: '15:04' })).toBe('Inactivo: dejarás el escenario a las 15:04');
    expect(fill('{a} {b}', { a: 1 })).toBe('1 {b}');
    expect(nameOf(es.designs, 'YACHT')).toBe('Yate');
    expect(nameOf(es.designs, 'NEW_DESIGN')).toBe('NEW_DESIGN');
    expect(nameOf(es.uploadStatuses, 'SOMETHING_ELSE', 'something else')).toBe('something else');
  });

  it('have no empty text in either language', () => {
    const texts = (d: object): string[] => Object.values(d).flatMap((v) => (typeof v === 'string' ? [v] : texts(v as object)));
    expect(texts(es).filter((text) => !text.trim())).toEqual([]);
    expect(texts(en).filter((text) => !text.trim())).toEqual([]);
  });
});

describe('the page in the chosen language', () => {
  it('sets the page language at start-up from ?lang=', async () => {
    window.history.replaceState(null, '', '/?lang=es');
    document.documentElement.lang = 'en';
    vi.resetModules();
    const fresh = await import('../src/i18n/i18n');
    fresh.applyPageLanguage();
    expect(document.documentElement.lang).toBe('es');
    fresh.setLocale('en');
    expect(document.documentElement.lang).toBe('en');
    window.history.replaceState(null, '', '/');
  });

  it("shows a coded error in Spanish and an uncoded one in the server's words, and follows a change of language", () => {
    act(() => setLocale('es'));
    const coded = new ApiError(401, 'Incorrect email or password', 'USER_BAD_CREDENTIALS');
    const { rerender } = render(<ErrorNote error={coded} />);
    expect(screen.getByRole('alert').textContent).toBe('Correo o contraseña incorrectos');
    act(() => setLocale('en'));
    expect(screen.getByRole('alert').textContent).toBe('Incorrect email or password');
    act(() => setLocale('es'));
    rerender(<ErrorNote error={new ApiError(400, 'Sign-up requires email and password')} />);
    expect(screen.getByRole('alert').textContent).toBe('Sign-up requires email and password');
  });

  it('names the room controls in Spanish', () => {
    act(() => setLocale('es'));
    render(
      <RoomControls
        state={emptyState()}
        nowPlaying={null}
        userUuid="me"
        isLoggedIn
        moderator={false}
        afk={{ me: Date.now() + 3_600_000 }}
        actionError={undefined}
        volume={0.5}
        onVolume={() => {}}
        run={() => {}}
      />,
    );
    expect(screen.getByRole('toolbar', { name: 'Controles de la sala' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Emoji 🎉' })).toBeTruthy();
    expect(screen.getByRole('slider', { name: 'Volumen' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/^Inactivo: dejarás el escenario a las \d{1,2}:\d\d$/);
  });
});
