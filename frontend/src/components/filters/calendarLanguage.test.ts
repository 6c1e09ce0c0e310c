import { describe, expect, it } from 'vitest';
import { pickerFormat } from './calendarLanguage';

describe('pickerFormat', () => {
  it('writes dates as people of the app language read them', () => {
    expect(pickerFormat('de')).toEqual({ locale: 'de', valueFormat: 'DD.MM.YYYY HH:mm' });
    expect(pickerFormat('en')).toEqual({ locale: 'en-gb', valueFormat: 'DD/MM/YYYY HH:mm' });
  });
});
