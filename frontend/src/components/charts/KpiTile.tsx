import { Anchor, Group, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconArrowDownRight, IconArrowRight, IconArrowUpRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type DrillTarget, drillTopicOf } from '../../lib/drillDown';
import { useDrillDown } from '../drill/useDrillDown';
import { shownTrend, type Trend } from './trend';

interface KpiTileProps {
  /** Test id `kpi-<name>`. */
  name: string;
  label: string;
  /** The formatted value ("96.2%"), or the "no data" text. */
  value: string;
  trend: Trend | null;
  /** The formatted change against the previous period ("+1.2 pp", "−3"); without a trend,
   * why there is no comparison (default "No comparison"). */
  deltaText?: string;
  /** The formatted previous value, for the tooltip and screen readers. */
  previousText?: string;
  /** A small chart under the value (sparkline). */
  chart?: ReactNode;
  /** Controls in the tile's corner (e.g. layout editing). */
  actions?: ReactNode;
  /** The page or list the figure summarises: the tile becomes a link to it. */
  drill?: DrillTarget | null;
}

const TREND_ICONS = { up: IconArrowUpRight, down: IconArrowDownRight, flat: IconArrowRight };

/** A key figure with its trend against the previous period (arrow, delta, good/bad colour). */
export function KpiTile({
  name,
  label,
  value,
  trend: compared,
  deltaText,
  previousText,
  chart,
  actions,
  drill,
}: KpiTileProps) {
  const { t } = useTranslation();
  const shown = shownTrend(compared, value, previousText);
  const trend = shown.trend;
  const color = trend?.good === true ? 'teal' : trend?.good === false ? 'red' : 'dimmed';
  const Icon = trend ? TREND_ICONS[trend.direction] : null;
  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      data-testid={`kpi-${name}`}
      data-drill={drill ? drill.path : undefined}
      style={{ minWidth: 0, position: drill ? 'relative' : undefined }}
    >
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          {/* Labels wrap instead of being cut: "Fatal errors per 1,000 orders" must read whole. */}
          {drill ? (
            <TileLink label={label} target={drill} />
          ) : (
            <Text size="sm" c="dimmed" fw={500} className="fs-kpi-text" data-testid="kpi-label">
              {label}
            </Text>
          )}
          {actions && <div className="fs-tile-actions">{actions}</div>}
        </Group>
        <Text fw={700} lh={1.1} className="fs-kpi-value" data-testid="kpi-value">
          {value}
        </Text>
        <Group
          gap={4}
          wrap="wrap"
          c={color}
          data-testid="kpi-trend"
          data-direction={trend?.direction ?? 'none'}
          data-good={trend?.good === null || !trend ? 'neutral' : String(trend.good)}
          title={previousText ? t('charts.previousValue', { value: previousText }) : undefined}
        >
          {Icon && <Icon size={16} aria-hidden />}
          <Text size="sm" c={color} fw={500} className="fs-kpi-text">
            {!trend
              ? (deltaText ?? t('charts.noComparison'))
              : shown.unchanged
                ? t('charts.unchanged')
                : (deltaText ?? '')}
          </Text>
          {trend && previousText && (
            <Text size="xs" c="dimmed" className="fs-kpi-text" data-testid="kpi-previous">
              {t('charts.vsPrevious', { value: previousText })}
            </Text>
          )}
        </Group>
        {chart}
      </Stack>
    </Paper>
  );
}

/**
 * The label as a link to the page behind the figure; it covers the whole tile (pointer, one
 * click target) and its accessible name says where it leads.
 */
function TileLink({ label, target }: { label: string; target: DrillTarget }) {
  const { t } = useTranslation();
  const { locationOf } = useDrillDown();
  const location = locationOf(target);
  const page = t(`pages.${drillTopicOf(target)}.title`);
  if (!location) {
    return (
      <Text size="sm" c="dimmed" fw={500} className="fs-kpi-text" data-testid="kpi-label">
        {label}
      </Text>
    );
  }
  return (
    <Anchor
      component={Link}
      to={location}
      size="sm"
      c="dimmed"
      fw={500}
      underline="hover"
      className="fs-kpi-text fs-tile-link"
      data-testid="kpi-label"
    >
      {label}
      <VisuallyHidden> {t('drill.opens', { page })}</VisuallyHidden>
    </Anchor>
  );
}
