import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The app's own translation files: tests look texts up by key in both languages. */
export type Language = 'en' | 'de';

type Tree = { [key: string]: string | Tree };

const i18nDir = join(dirname(fileURLToPath(import.meta.url)), '../../src/i18n');
const catalogues: Record<Language, Tree> = {
  en: JSON.parse(readFileSync(join(i18nDir, 'en.json'), 'utf8')) as Tree,
  de: JSON.parse(readFileSync(join(i18nDir, 'de.json'), 'utf8')) as Tree,
};

/** The translated text of a dotted key, e.g. `text('de', 'menu.help')`; fails on unknown keys. */
export function text(language: Language, key: string, values: Record<string, string> = {}): string {
  let node: string | Tree | undefined = catalogues[language];
  for (const part of key.split('.')) {
    node = typeof node === 'object' ? node[part] : undefined;
  }
  if (typeof node !== 'string') {
    throw new Error(`no ${language} text for ${key}`);
  }
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? `{{${name}}}`);
}
