import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { KpiTile } from './KpiTile';
import { comparableFigures, kpiTextsIn, partlyRecorded, recordedShare } from './kpiTexts';

function renderTile(props: Parameters<typeof KpiTile>[0], language: 'en' | 'de' = 'de') {
  createI18n(language);
  render(
    <MantineProvider>
      <KpiTile {...props} />
    </MantineProvider>,
  );
  return within(screen.getByTestId(`kpi-${props.name}`)).getByTestId('kpi-trend');
}

describe('KpiTile trend', () => {
  it('prints a small change beside two different values, with a flat neutral arrow', () => {
    // 60.6 % against 60.5 %: within the tolerance, but the numbers read differently.
    const texts = kpiTextsIn('de', 'keine Daten')(60.58, 60.51, 'percentPoints', true);
    expect([texts.value, texts.previousText]).toEqual(['60,6\u00a0%', '60,5\u00a0%']);
    const trend = renderTile({ name: 'charge', label: 'Mittlerer Ladestand', ...texts });
    expect(trend).toHaveTextContent('+0,1 Pp.');
    expect(trend).not.toHaveTextContent('unverändert');
    expect(trend).toHaveAttribute('data-direction', 'flat');
    expect(trend).toHaveAttribute('data-good', 'neutral');
  });

  it('says "unchanged" with no arrow colour when both values read the same', () => {
    // 1 h 53 min 31 s against 1 h 54 min 29 s: beyond the tolerance of a shorter figure,
    // yet shown to the minute, so a red arrow would stand beside two equal numbers.
    const texts = kpiTextsIn('en', 'no data')(6811, 6869, 'duration', true);
    expect(texts.value).toBe(texts.previousText);
    expect(texts.trend?.direction).toBe('down');
    const trend = renderTile({ name: 'session', label: 'Mean session', ...texts }, 'en');
    expect(trend).toHaveTextContent('unchanged');
    expect(trend).toHaveAttribute('data-direction', 'flat');
    expect(trend).toHaveAttribute('data-good', 'neutral');
  });

  it('says why there is no comparison, or that there is none', () => {
    const reason = renderTile(
      {
        name: 'energy',
        label: 'Energie',
        value: '–',
        trend: null,
        deltaText: 'Kapazität unbekannt',
      },
      'de',
    );
    expect(reason).toHaveTextContent('Kapazität unbekannt');
    const none = renderTile({ name: 'slope', label: 'Trend', value: '−1,06', trend: null }, 'de');
    expect(none).toHaveTextContent('Kein Vergleich');
  });
});

describe('comparableFigures', () => {
  it('compares with a previous period only when it holds any data', () => {
    const before = { periodSeconds: 86_400, noDataSeconds: 86_400, sessions: 0 };
    const partly = { periodSeconds: 86_400, noDataSeconds: 3_600, sessions: 4 };
    expect(comparableFigures(before)).toBeNull();
    expect(comparableFigures(partly)).toBe(partly);
    // A period the connected fleet spent offline is a comparison: "previous: 0".
    const closed = { periodSeconds: 86_400, noDataSeconds: 0, sessions: 0 };
    expect(comparableFigures(closed)).toBe(closed);
    // An empty period (a shift that has not begun) has no data either.
    expect(comparableFigures({ periodSeconds: 0, noDataSeconds: 0 })).toBeNull();
    expect(comparableFigures(undefined)).toBeNull();
    // Without a comparison the tile says so instead of "+4 against 0".
    const texts = kpiTextsIn('en', 'no data')(4, null, 'integer', false);
    const trend = renderTile({ name: 'sessions', label: 'Charge sessions', ...texts }, 'en');
    expect(trend).toHaveTextContent('No comparison');
  });
});

describe('partlyRecorded', () => {
  const day = (noDataSeconds: number) => ({ periodSeconds: 86_400, noDataSeconds });

  it('gives both shares when the previous period was recorded for less than half as much', () => {
    // The fleet began reporting an hour before the previous day ended; today is all recorded.
    const shares = partlyRecorded(day(0), day(82_800));
    expect(shares?.current).toBe(1);
    expect(shares?.previous).toBeCloseTo(1 / 24, 9);
    // Half of today recorded, under a quarter of yesterday.
    expect(partlyRecorded(day(43_200), day(66_000))?.previous).toBeCloseTo(0.236, 3);
  });

  it('says nothing at half or more, nor without a comparison', () => {
    expect(partlyRecorded(day(0), day(43_200))).toBeNull(); // a fleet that doubled
    expect(partlyRecorded(day(43_200), day(43_200))).toBeNull();
    expect(partlyRecorded(day(0), day(86_400))).toBeNull(); // no comparison at all
    expect(partlyRecorded(day(0), null)).toBeNull();
    expect(recordedShare({ periodSeconds: 0, noDataSeconds: 0 })).toBe(0);
  });
});
