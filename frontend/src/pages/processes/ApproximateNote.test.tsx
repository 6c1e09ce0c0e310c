import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { ApproximateNote } from './ApproximateNote';

function renderNote(shown: boolean, language: 'en' | 'de') {
  createI18n(language);
  return render(
    <MantineProvider>
      <ApproximateNote shown={shown} />
    </MantineProvider>,
  );
}

describe('ApproximateNote', () => {
  it('explains the ≈ in English and German', () => {
    const { unmount } = renderNote(true, 'en');
    expect(screen.getByTestId('approximate-note')).toHaveTextContent(
      '≈ From a histogram: within 0.5% of the exact value (periods longer than 31 days)',
    );
    unmount();
    renderNote(true, 'de');
    expect(screen.getByTestId('approximate-note')).toHaveTextContent(
      '≈ Aus einem Histogramm: höchstens 0,5 % vom exakten Wert entfernt (Zeiträume über 31 Tage)',
    );
  });

  it('is absent while every value is exact', () => {
    renderNote(false, 'en');
    expect(screen.queryByTestId('approximate-note')).toBeNull();
  });
});
