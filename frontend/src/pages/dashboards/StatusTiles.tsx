import { Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBattery2,
  IconBolt,
  IconMapPin,
  IconRoute,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { StateName, StatusTile } from '../../api/analytics';
import type { Site } from '../../api/types';
import { STATE_COLORS, STATE_TEXT_COLORS } from '../../components/charts';
import { formatDuration, formatPercent } from '../../lib/format';
import { type Board, orderedCounts, secondsSinceLastMessage } from './statusboardModel';
import type { LiveStatus } from './useStatusboard';

const LIVE_COLORS: Record<LiveStatus, string> = {
  live: 'teal',
  connecting: 'gray',
  reconnecting: 'orange',
  unsupported: 'gray',
};

export function LiveIndicator({ status, large }: { status: LiveStatus; large: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge
      size={large ? 'xl' : 'lg'}
      variant="dot"
      color={LIVE_COLORS[status]}
      data-testid="live-indicator"
      data-status={status}
      aria-live="polite"
    >
      {t(`statusboard.live.${status}`)}
    </Badge>
  );
}

/**
 * The fleet's vehicles per state; each count shows only the vehicles in its state (the list
 * behind it), pressed again all of them.
 */
export function StateCounts({
  board,
  large,
  shown,
  onShow,
}: {
  board: Board;
  large: boolean;
  /** The state whose vehicles alone are shown, if one. */
  shown: StateName | null;
  onShow: (state: StateName | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" data-testid="state-counts">
      {orderedCounts(board).map(({ state, count }) => (
        <Paper
          key={state}
          component="button"
          type="button"
          withBorder
          radius="md"
          px={large ? 'md' : 'sm'}
          py={4}
          data-testid={`state-count-${state}`}
          data-count={count}
          aria-pressed={shown === state}
          title={t('statusboard.onlyState', { state: t(`productivity.states.${state}`) })}
          onClick={() => onShow(shown === state ? null : state)}
          style={{
            borderLeft: `6px solid ${STATE_COLORS[state]}`,
            cursor: 'pointer',
            outline: shown === state ? `2px solid ${STATE_COLORS[state]}` : undefined,
          }}
        >
          <Group gap={6} wrap="nowrap">
            <Text fw={700} fz={large ? 28 : 'lg'}>
              {count}
            </Text>
            <Text fz={large ? 'lg' : 'sm'} c="dimmed">
              {t(`productivity.states.${state}`)}
            </Text>
          </Group>
        </Paper>
      ))}
    </Group>
  );
}

interface TilesProps {
  board: Board;
  /** Only the vehicles in this state (none: all). */
  shown?: StateName | null;
  now: number;
  large: boolean;
  /** The sites of the vehicles in scope: a board of several names each tile's site. */
  sites?: Site[];
}

/**
 * Each tile's site, when the tiles lie at more than one (a partner's or a multi-site board:
 * "AGV 01" may run at two of them), with its organization when those differ too.
 */
function siteLabels(tiles: StatusTile[], sites: Site[]): Map<string, string> {
  // Keyed as text: a site's id is an `Id` (number or string), a tile's a number.
  const onBoard = new Set(tiles.map((tile) => String(tile.siteId)));
  const shown = sites.filter((site) => onBoard.has(String(site.id)));
  if (shown.length < 2) {
    return new Map();
  }
  const organizations = new Set(shown.map((site) => site.organizationId));
  return new Map(
    shown.map((site) => [
      String(site.id),
      organizations.size > 1 ? `${site.organizationName} · ${site.name}` : site.name,
    ]),
  );
}

export function StatusTiles({ board, now, large, sites = [], shown = null }: TilesProps) {
  const { t } = useTranslation();
  if (board.tiles.length === 0) {
    // Vehicles in scope, none in service: say so instead of an empty grid.
    return (
      <Text c="dimmed" fz={large ? 'xl' : 'md'} data-testid="statusboard-none-in-service">
        {t('statusboard.noneInService')}
      </Text>
    );
  }
  const tiles = shown ? board.tiles.filter((tile) => tile.state === shown) : board.tiles;
  if (shown && tiles.length === 0) {
    return (
      <Text c="dimmed" fz={large ? 'xl' : 'md'} data-testid="statusboard-none-in-state">
        {t('statusboard.noneInState', { state: t(`productivity.states.${shown}`) })}
      </Text>
    );
  }
  const labels = siteLabels(board.tiles, sites);
  return (
    <SimpleGrid
      // Display mode (a wall screen, also a tablet's): at most four to a row, so that a
      // vehicle's name and its state each have a line of their own at the large size.
      cols={large ? { base: 1, sm: 2, md: 3, lg: 4 } : { base: 1, xs: 2, md: 3, xl: 4 }}
      spacing={large ? 'md' : 'sm'}
      data-testid="status-tiles"
    >
      {tiles.map((tile) => (
        <VehicleTile
          key={tile.vehicleId}
          tile={tile}
          now={now}
          offsetMs={board.clockOffsetMs}
          large={large}
          site={labels.get(String(tile.siteId))}
        />
      ))}
    </SimpleGrid>
  );
}

function VehicleTile({
  tile,
  now,
  offsetMs,
  large,
  site,
}: {
  tile: StatusTile;
  now: number;
  offsetMs: number;
  large: boolean;
  /** The tile's site, on a board of several. */
  site?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const color = STATE_TEXT_COLORS[tile.state];
  const age = secondsSinceLastMessage(tile, now, offsetMs);
  const inStateSeconds =
    tile.since === null ? null : Math.max(0, (now + offsetMs - Date.parse(tile.since)) / 1000);
  const firstError = tile.activeErrors[0];
  const name = (
    <Text
      fw={800}
      fz={large ? 30 : 'xl'}
      truncate={!large}
      lineClamp={large ? 2 : undefined}
      c={color}
      className={large ? 'fs-kpi-text' : undefined}
      data-testid="status-name"
    >
      {tile.name}
    </Text>
  );
  const state = (
    <Text
      fw={700}
      fz={large ? 'xl' : 'sm'}
      tt="uppercase"
      c={color}
      style={{ flexShrink: 0 }}
      data-testid="status-state"
    >
      {t(`productivity.states.${tile.state}`)}
    </Text>
  );
  const inState = (
    <Text fz={large ? 'lg' : 'sm'} c={color}>
      {inStateSeconds === null
        ? t('statusboard.neverSeen')
        : t('statusboard.inStateFor', { duration: formatDuration(inStateSeconds, language) })}
    </Text>
  );
  return (
    <Paper
      radius="lg"
      p={large ? 'lg' : 'md'}
      data-testid={`status-tile-${tile.vehicleId}`}
      data-state={tile.state}
      style={{ background: STATE_COLORS[tile.state], color, minWidth: 0 }}
    >
      <Stack gap={large ? 6 : 4}>
        {large ? (
          // Read from across a room: the whole name, then the state and its duration.
          <>
            {name}
            <Group gap="xs" wrap="wrap" align="baseline">
              {state}
              {inState}
            </Group>
          </>
        ) : (
          <>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              {name}
              {state}
            </Group>
            {inState}
          </>
        )}
        {site && (
          <Group gap={6} wrap="nowrap" c={color}>
            <IconMapPin size={large ? 22 : 16} aria-hidden style={{ flexShrink: 0 }} />
            <Text fz={large ? 'lg' : 'sm'} c={color} truncate data-testid="status-site">
              {site}
            </Text>
          </Group>
        )}
        <Group gap={6} wrap="nowrap" c={color}>
          <IconRoute size={large ? 22 : 16} aria-hidden style={{ flexShrink: 0 }} />
          <Text
            fz={large ? 'lg' : 'sm'}
            c={color}
            className="fs-kpi-text"
            data-testid="status-order"
          >
            {tile.orderId ? `${tile.workflow || '–'} · ${tile.orderId}` : t('statusboard.noOrder')}
          </Text>
        </Group>
        <Group justify="space-between" wrap={large ? 'wrap' : 'nowrap'} gap="xs">
          <Group gap={4} wrap="nowrap" c={color} data-testid="status-charge">
            {tile.charging ? (
              <IconBolt size={large ? 22 : 16} aria-hidden />
            ) : (
              <IconBattery2 size={large ? 22 : 16} aria-hidden />
            )}
            <Text fz={large ? 'lg' : 'sm'} fw={600} c={color} style={{ whiteSpace: 'nowrap' }}>
              {tile.charge === null
                ? t('charts.noValue')
                : formatPercent(tile.charge, language, { digits: 0 })}
              {tile.charging ? ` · ${t('statusboard.charging')}` : ''}
            </Text>
          </Group>
          <Text
            fz={large ? 'md' : 'xs'}
            c={color}
            data-testid="status-age"
            data-seconds={age ?? ''}
          >
            {age === null
              ? t('statusboard.noMessage')
              : t('statusboard.lastMessage', { age: formatDuration(age, language) })}
          </Text>
        </Group>
        {firstError && (
          <Group
            gap={4}
            wrap="nowrap"
            c={color}
            data-testid="status-errors"
            data-count={tile.activeErrorCount}
          >
            <IconAlertTriangle size={large ? 22 : 16} aria-hidden style={{ flexShrink: 0 }} />
            {/* The active error wraps: its type and level are what the operator acts on. */}
            <Text fz={large ? 'lg' : 'sm'} fw={600} c={color} className="fs-kpi-text">
              {t('statusboard.activeErrors', { count: tile.activeErrorCount })}:{' '}
              {firstError.errorType} (
              {t(`failures.level.${firstError.level}`, { defaultValue: firstError.level })})
            </Text>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
