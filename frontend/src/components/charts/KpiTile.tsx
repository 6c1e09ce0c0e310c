import { Group, Paper, Stack, Text } from '@mantine/core';
import { IconArrowDownRight, IconArrowRight, IconArrowUpRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Trend } from './trend';

interface KpiTileProps {
  /** Test id `kpi-<name>`. */
  name: string;
  label: string;
  /** The formatted value ("96.2 %"), or the "no data" text. */
  value: string;
  trend: Trend | null;
  /** The formatted change against the previous period ("+1.2 pp", "−3"). */
  deltaText?: string;
  /** The formatted previous value, for the tooltip and screen readers. */
  previousText?: string;
  /** A small chart under the value (sparkline). */
  chart?: ReactNode;
  /** Controls in the tile's corner (e.g. layout editing). */
  actions?: ReactNode;
}

const TREND_ICONS = { up: IconArrowUpRight, down: IconArrowDownRight, flat: IconArrowRight };

/** A key figure with its trend against the previous period (arrow, delta, good/bad colour). */
export function KpiTile({
  name,
  label,
  value,
  trend,
  deltaText,
  previousText,
  chart,
  actions,
}: KpiTileProps) {
  const { t } = useTranslation();
  const color = trend?.good === true ? 'teal' : trend?.good === false ? 'red' : 'dimmed';
  const Icon = trend ? TREND_ICONS[trend.direction] : null;
  return (
    <Paper withBorder radius="lg" p="md" data-testid={`kpi-${name}`} style={{ minWidth: 0 }}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          {/* Labels wrap instead of being cut: "Fatal errors per 1,000 orders" must read whole. */}
          <Text size="sm" c="dimmed" fw={500} className="fs-kpi-text" data-testid="kpi-label">
            {label}
          </Text>
          {actions}
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
              ? t('charts.noComparison')
              : trend.direction === 'flat'
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
