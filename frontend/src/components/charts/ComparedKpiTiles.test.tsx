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

  it('says beside the tiles when the previous period was recorded for much less of its time', () => {
    const noteWith = (previous: Figures | null, language: 'en' | 'de' = 'en') => {
      createI18n(language);
      const view = render(
        <MantineProvider>
          <ComparedKpiTiles
            testId="tiles"
            tiles={TILES}
            current={{ periodSeconds: 3600, noDataSeconds: 0, sessions: 9, meanCharge: 61 }}
            previous={previous}
          />
        </MantineProvider>,
      );
      const note = view.queryByTestId('partly-recorded-note')?.textContent ?? null;
      view.unmount();
      return note;
    };
    const figures = (noDataSeconds: number): Figures => ({
      periodSeconds: 3600,
      noDataSeconds,
      sessions: 1,
      meanCharge: 60,
    });
    // 18 of 3,600 s recorded (a fleet that began reporting at the previous period's end).
    expect(noteWith(figures(3582))).toMatch(/^The previous period has data for only < 1% of its/);
    expect(noteWith(figures(3582))).toContain('(this period: 100%)');
    expect(noteWith(figures(2700), 'de')).toMatch(/^Der Vorzeitraum hat nur für 25\s%/);
    // Half of it recorded (a fleet that doubled), all of it, or no comparison: no note.
    expect(noteWith(figures(1800))).toBeNull();
    expect(noteWith(figures(0))).toBeNull();
    expect(noteWith(null)).toBeNull();
  });
});
