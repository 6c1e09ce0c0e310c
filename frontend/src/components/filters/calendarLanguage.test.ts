import { describe, expect, it } from 'vitest';
import { dayAriaLabel, pickerFormat } from './calendarLanguage';

describe('pickerFormat', () => {
  it('writes dates as people of the app language read them', () => {
    expect(pickerFormat('de')).toEqual({ locale: 'de', valueFormat: 'DD.MM.YYYY HH:mm' });
    expect(pickerFormat('en')).toEqual({ locale: 'en-gb', valueFormat: 'DD/MM/YYYY HH:mm' });
  });
});

describe('dayAriaLabel', () => {
  it('names a day as the app writes a date, with the German full stop', () => {
    expect(dayAriaLabel('de')('2026-10-26')).toBe('26. Oktober 2026');
    expect(dayAriaLabel('en')('2026-10-26')).toBe('26 October 2026');
    expect(dayAriaLabel('de')(new Date(2026, 0, 5))).toBe('5. Januar 2026');
  });
});
