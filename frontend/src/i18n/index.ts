import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, type Language, SUPPORTED_LANGUAGES } from '../constants';
import de from './de.json';
import en from './en.json';

export const resources = { en: { translation: en }, de: { translation: de } } as const;

const STORED_LANGUAGE_KEY = 'fleetscope.language';

export function normalizeLanguage(value: string | null | undefined): Language {
  const short = (value ?? '').slice(0, 2).toLowerCase();
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(short)
    ? (short as Language)
    : DEFAULT_LANGUAGE;
}

function browserLanguage(): Language {
  return normalizeLanguage(window.navigator.language);
}

/** Before login: the last language used on this device, else the browser's. */
function initialLanguage(): Language {
  try {
    const stored = window.localStorage.getItem(STORED_LANGUAGE_KEY);
    if (stored) {
      return normalizeLanguage(stored);
    }
  } catch {
    // Storage may be disabled (private mode); fall back to the browser language.
  }
  return browserLanguage();
}

export function rememberLanguage(language: Language): void {
  try {
    window.localStorage.setItem(STORED_LANGUAGE_KEY, language);
  } catch {
    // Not remembering is harmless: the user's saved setting wins after login.
  }
}

async function show(language: Language): Promise<void> {
  document.documentElement.lang = language;
  if (i18next.language !== language) {
    await i18next.changeLanguage(language);
  }
}

export async function applyLanguage(language: Language): Promise<void> {
  rememberLanguage(language);
  await show(language);
}

/** None chosen: the browser's language, now and at the next start on this device. */
export async function followBrowserLanguage(): Promise<void> {
  try {
    window.localStorage.removeItem(STORED_LANGUAGE_KEY);
  } catch {
    // Storage may be disabled: nothing was remembered then.
  }
  await show(browserLanguage());
}

export function createI18n(language: Language = initialLanguage()): I18n {
  void i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  document.documentElement.lang = language;
  return i18next;
}

export { i18next };
