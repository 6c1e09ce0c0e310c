import { describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, codeOrNameFilter, typedCode } from './auditCodes';

const germanAction = (code: string) => {
  const [entity = '', verb = ''] = code.split('.');
  return (de.admin.audit.actions as Record<string, Record<string, string>>)[entity]?.[verb] ?? '';
};
const options = AUDIT_ACTIONS.map((code) => ({ value: code, label: code }));

describe('the audit filters', () => {
  it('offer every recorded action and entity type', () => {
    expect(AUDIT_ACTIONS).toContain('site.update');
    expect(AUDIT_ACTIONS).toContain('deadLetter.reingest');
    expect(AUDIT_ACTIONS).toHaveLength(19);
    expect(AUDIT_ENTITY_TYPES).toEqual([
      'organization',
      'site',
      'vehicle',
      'user',
      'token',
      'deadLetter',
    ]);
  });

  it('find an action by its code or by its name, any case', () => {
    const filter = codeOrNameFilter(germanAction);
    const values = (search: string) =>
      filter({ options, search, limit: 100 }).map((option) =>
        'value' in option ? option.value : '',
      );
    expect(values('SITE.up')).toEqual(['site.update']);
    // "Standort geändert" is site.update; "geändert" names every change of that kind.
    expect(values('standort geä')).toEqual(['site.update']);
    expect(values('geändert')).toEqual([
      'site.update',
      'vehicle.update',
      'user.update',
      'user.passwordChange',
    ]);
    expect(values('  ')).toHaveLength(AUDIT_ACTIONS.length);
    expect(values('nothing like it')).toEqual([]);
    // A whole code, chosen or typed: nothing more to offer, the list closes.
    expect(values('site.update')).toEqual([]);
    expect(values('Site.Update')).toEqual([]);
  });

  it('read a typed name as its code, anything else as typed', () => {
    expect(typedCode(' Standort GEÄNDERT ', AUDIT_ACTIONS, germanAction)).toBe('site.update');
    expect(typedCode('site.update', AUDIT_ACTIONS, germanAction)).toBe('site.update');
    expect(typedCode('Site.Update', AUDIT_ACTIONS, germanAction)).toBe('site.update');
    expect(typedCode(' site.upd ', AUDIT_ACTIONS, germanAction)).toBe('site.upd');
  });
});
