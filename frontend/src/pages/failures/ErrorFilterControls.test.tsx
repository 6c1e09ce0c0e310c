import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n';
import { ErrorFilterControls } from './ErrorFilterControls';

function renderControls(errorType: string | null) {
  createI18n('en');
  render(
    <MantineProvider>
      <ErrorFilterControls
        filter={{ errorType, levels: [], cell: null }}
        errorTypes={['bumperHit', 'obstacleDetected']}
        onChange={vi.fn()}
      />
    </MantineProvider>,
  );
  return screen.getByTestId('filter-error-type');
}

describe('the error type filter', () => {
  it('shows a type the period holds', () => {
    expect(renderControls('bumperHit')).toHaveValue('bumperHit');
  });

  it('shows a type a link names that the period does not hold, so it can be cleared', () => {
    expect(renderControls('laserFault')).toHaveValue('laserFault');
  });

  it('shows all types without a filter', () => {
    expect(renderControls(null)).toHaveValue('');
  });
});
