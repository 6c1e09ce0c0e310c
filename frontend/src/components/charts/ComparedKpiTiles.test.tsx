import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { ComparedKpiTiles, type ComparedTile } from './ComparedKpiTiles';

interface Figures {
  periodSeconds: number;
  noDataSeconds: number;
  sessions: number;
  meanCharge: number | null;
}

const TILES: ComparedTile<Figures>[] = [
  {
    name: 'sessions',
    labelKey: 'battery.sessions',
    pick: (f) => f.sessions,
    format: 'integer',
    higherIsBetter: true,
  },
  {
    name: 'charge',
    labelKey: 'battery.meanCharge',
    pick: (f) => f.meanCharge,
    format: 'percentPoints',
    higherIsBetter: true,
  },
];

function values(current: Figures) {
  createI18n('en');
  render(
    <MantineProvider>
      <ComparedKpiTiles testId="tiles" tiles={TILES} current={current} previous={null} />
    </MantineProvider>,
  );
  return TILES.map(
    (tile) => within(screen.getByTestId(`kpi-${tile.name}`)).getByTestId('kpi-value').textContent,
  );
}

describe('ComparedKpiTiles', () => {
  it('shows a count of 0 of a period with data', () => {
    expect(values({ periodSeconds: 3600, noDataSeconds: 0, sessions: 0, meanCharge: 61 })).toEqual([
      '0',
      '61.0%',
    ]);
  });

  it('reads "no data" in every tile of a period without any, a count too', () => {
    const empty = { periodSeconds: 3600, noDataSeconds: 3600, sessions: 0, meanCharge: null };
    expect(values(empty)).toEqual(['no data', 'no data']);
  });
});
