import { describe, expect, it } from 'vitest';
import de from './de.json';
import en from './en.json';
import { normalizeLanguage } from './index';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
      keyPaths(child, prefix ? `${prefix}.${key}` : key),
    );
  }
  return [prefix];
}

describe('translations', () => {
  it('English and German have exactly the same keys', () => {
    expect(keyPaths(de).sort()).toEqual(keyPaths(en).sort());
  });

  it('no text is empty', () => {
    for (const resource of [en, de]) {
      for (const path of keyPaths(resource)) {
        const text = path
          .split('.')
          .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], resource);
        expect(typeof text === 'string' && text.trim().length > 0, path).toBe(true);
      }
    }
  });

  it('normalizes languages to en or de', () => {
    expect(normalizeLanguage('de-DE')).toBe('de');
    expect(normalizeLanguage('en')).toBe('en');
    expect(normalizeLanguage('fr')).toBe('en');
    expect(normalizeLanguage(null)).toBe('en');
  });
});
