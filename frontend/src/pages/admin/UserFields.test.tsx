import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useUserFields } from './UserFields';

describe('useUserFields', () => {
  it('asks a customer for an organization and saves the one chosen', () => {
    const { result } = renderHook(() =>
      useUserFields({ role: 'customer', organizationId: null, language: 'en' }),
    );
    expect(result.current.complete).toBe(false);
    act(() => result.current.setOrganizationId('7'));
    expect(result.current.complete).toBe(true);
    expect(result.current.organization).toBe(7);
  });

  it.each(['service', 'support', 'partner', 'superuser'] as const)(
    'saves no organization for the role %s, whatever was chosen before',
    (role) => {
      const { result } = renderHook(() =>
        useUserFields({ role: 'customer', organizationId: 7, language: 'de' }),
      );
      act(() => result.current.setRole(role));
      expect(result.current.complete).toBe(true);
      expect(result.current.organization).toBeNull();
    },
  );
});
