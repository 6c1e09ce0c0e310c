import type { ComboboxItem, OptionsFilter } from '@mantine/core';
import en from '../../i18n/en.json';

/**
 * The codes the audit log's filters take, as the catalogues name them: every action
 * "<entityType>.<verb>" and every entity type the backend records (its ``AuditAction`` and
 * ``EntityType``; a backend test holds both catalogues to exactly these).
 */
export const AUDIT_ACTIONS: string[] = Object.entries(en.admin.audit.actions).flatMap(
  ([entity, verbs]) => Object.keys(verbs).map((verb) => `${entity}.${verb}`),
);
export const AUDIT_ENTITY_TYPES: string[] = Object.keys(en.admin.audit.entities);

const folded = (text: string) => text.trim().toLocaleLowerCase();

/**
 * The options whose code or name (in the user's language) holds the typed text, any case;
 * none once the text is a whole code (chosen or typed), so that the list closes and leaves
 * the table in view.
 */
export function codeOrNameFilter(name: (code: string) => string): OptionsFilter {
  return ({ options, search }) => {
    const typed = folded(search);
    if (options.some((option) => 'value' in option && folded(option.value) === typed)) {
      return [];
    }
    return options.filter(
      (option): option is ComboboxItem =>
        'value' in option &&
        (typed === '' ||
          folded(option.value).includes(typed) ||
          folded(name(option.value)).includes(typed)),
    );
  };
}

/** The code a typed filter means: the code whose code or whole name it is (any case, as the
 * table shows them), else the text as typed (the server finds no entry for it). */
export function typedCode(typed: string, codes: string[], name: (code: string) => string): string {
  const text = folded(typed);
  return codes.find((code) => folded(code) === text || folded(name(code)) === text) ?? typed.trim();
}
