import { SimpleGrid } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DrillTarget } from '../../lib/drillDown';
import { KpiTile } from './KpiTile';
import { kpiTextsIn, type PeriodCoverage, periodRecorded, type TileFormat } from './kpiTexts';
import { PartlyRecordedNote } from './PartlyRecordedNote';

/** One tile: a figure of the period beside the same figure of the previous period. */
export interface ComparedTile<F> {
  /** Test id `kpi-<name>`. */
  name: string;
  labelKey: string;
  pick: (figures: F) => number | null;
  format: TileFormat;
  higherIsBetter: boolean;
}

interface ComparedKpiTilesProps<F> {
  testId: string;
  tiles: readonly ComparedTile<F>[];
  current: F;
  /** Null: no comparison (a previous period without any data). */
  previous: F | null;
  /** Tiles of another kind, placed after the compared ones. */
  children?: ReactNode;
  largeColumns?: number;
  /** The list behind a tile (by its name), for the drill-down; null: a plain tile. */
  drillOf?: (name: string) => DrillTarget | null;
}

/**
 * The key figures of an analysis page with their trend against the previous period. In a
 * period without any data (`periodRecorded`) every tile reads "no data", a count too: "0"
 * would claim a measurement the page says it does not have. Under the tiles, a previous
 * period recorded for much less of its time says so (`PartlyRecordedNote`).
 */
export function ComparedKpiTiles<F extends PeriodCoverage>({
  testId,
  tiles,
  current,
  previous,
  children,
  largeColumns = 6,
  drillOf,
}: ComparedKpiTilesProps<F>) {
  const { t, i18n } = useTranslation();
  const texts = kpiTextsIn(i18n.language, t('charts.noValue'));
  const recorded = periodRecorded(current);
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: largeColumns }} spacing="sm" data-testid={testId}>
        {tiles.map((tile) => (
          <KpiTile
            key={tile.name}
            name={tile.name}
            label={t(tile.labelKey)}
            drill={drillOf?.(tile.name)}
            {...texts(
              recorded ? tile.pick(current) : null,
              previous === null ? null : tile.pick(previous),
              tile.format,
              tile.higherIsBetter,
            )}
          />
        ))}
        {children}
      </SimpleGrid>
      <PartlyRecordedNote current={current} previous={previous} />
    </>
  );
}
