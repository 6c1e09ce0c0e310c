import { ActionIcon, Group, Skeleton, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconGripVertical, IconX } from '@tabler/icons-react';
import { type DragEvent, lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DashboardTileKey } from '../../api/analytics';
import { KpiTile, Sparkline } from '../../components/charts';
import { useDrillDown } from '../../components/drill/useDrillDown';
import { dashboardTileTarget } from '../../lib/drillDown';
import type { DashboardChartKey } from './dashboardLayout';
import type { DashboardTileModel } from './dashboardTiles';

interface EditableWidgetProps {
  id: string;
  label: string;
  editing: boolean;
  isFirst: boolean;
  isLast: boolean;
  canRemove: boolean;
  /** Two rows of the grid (a chart): the tiles beside it fill the rows it spans. */
  tall: boolean;
  onMove: (step: -1 | 1) => void;
  onDropOn: (draggedId: string) => void;
  onRemove: () => void;
  children: (actions: ReactNode) => ReactNode;
}

const DRAG_TYPE = 'application/x-fleetscope-widget';

/**
 * One dashboard widget. In edit mode it gets move up/down and remove buttons (keyboard and
 * screen-reader friendly) and can also be dragged onto another widget's place.
 */
export function EditableWidget({
  id,
  label,
  editing,
  isFirst,
  isLast,
  canRemove,
  tall,
  onMove,
  onDropOn,
  onRemove,
  children,
}: EditableWidgetProps) {
  const { t } = useTranslation();
  const [dropTarget, setDropTarget] = useState(false);
  const dragProps = editing
    ? {
        draggable: true,
        onDragStart: (event: DragEvent) => {
          event.dataTransfer.setData(DRAG_TYPE, id);
          event.dataTransfer.effectAllowed = 'move';
        },
        onDragOver: (event: DragEvent) => {
          if (event.dataTransfer.types.includes(DRAG_TYPE)) {
            event.preventDefault();
            setDropTarget(true);
          }
        },
        onDragLeave: () => setDropTarget(false),
        onDrop: (event: DragEvent) => {
          event.preventDefault();
          setDropTarget(false);
          const dragged = event.dataTransfer.getData(DRAG_TYPE);
          if (dragged && dragged !== id) {
            onDropOn(dragged);
          }
        },
      }
    : {};
  const actions = editing ? (
    <Group gap={2} wrap="nowrap">
      <IconGripVertical size={16} aria-hidden style={{ cursor: 'grab', opacity: 0.6 }} />
      <Tooltip label={t('dashboard.moveUp')}>
        <ActionIcon
          size="sm"
          variant="subtle"
          aria-label={t('dashboard.moveUpNamed', { name: label })}
          disabled={isFirst}
          onClick={() => onMove(-1)}
          data-testid={`widget-move-up-${id}`}
        >
          <IconArrowUp size={14} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('dashboard.moveDown')}>
        <ActionIcon
          size="sm"
          variant="subtle"
          aria-label={t('dashboard.moveDownNamed', { name: label })}
          disabled={isLast}
          onClick={() => onMove(1)}
          data-testid={`widget-move-down-${id}`}
        >
          <IconArrowDown size={14} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={canRemove ? t('dashboard.remove') : t('dashboard.keepOne')}>
        <ActionIcon
          size="sm"
          variant="subtle"
          color="red"
          aria-label={t('dashboard.removeNamed', { name: label })}
          disabled={!canRemove}
          onClick={onRemove}
          data-testid={`widget-remove-${id}`}
        >
          <IconX size={14} />
        </ActionIcon>
      </Tooltip>
    </Group>
  ) : null;
  return (
    <div
      data-testid={`widget-${id}`}
      data-editing={editing}
      style={{
        minWidth: 0,
        // A grid of one cell: the card fills the row's height, so a row's cards line up.
        display: 'grid',
        gridRow: tall ? 'span 2' : undefined,
        borderRadius: 'var(--mantine-radius-lg)',
        outline: dropTarget ? '2px dashed var(--mantine-primary-color-filled)' : undefined,
      }}
      {...dragProps}
    >
      {children(actions)}
    </div>
  );
}

/** A KPI tile with its trend and sparkline; it opens the page it summarises. */
export function TileWidget({
  tile,
  label,
  model,
  pending,
  editing,
  actions,
}: {
  tile: DashboardTileKey;
  label: string;
  /** Null: the answer has no such tile (yet). */
  model: DashboardTileModel | null;
  pending: boolean;
  editing: boolean;
  actions: ReactNode;
}) {
  const { t } = useTranslation();
  const { open } = useDrillDown();
  // Not while the layout is edited.
  const drill = editing ? null : dashboardTileTarget(tile);
  if (!model) {
    const value = pending ? '…' : t('charts.noValue');
    return (
      <KpiTile
        name={tile}
        label={label}
        value={value}
        trend={null}
        actions={actions}
        drill={drill}
      />
    );
  }
  return (
    <KpiTile
      name={tile}
      label={label}
      value={model.value}
      trend={model.trend}
      deltaText={model.deltaText}
      previousText={model.previousText}
      actions={actions}
      drill={drill}
      chart={
        model.sparkline ? (
          <Sparkline
            model={model.sparkline}
            height={48}
            ariaLabel={t('dashboard.sparkline', { name: label })}
            // The sparkline lies above the tile's link (to be hovered): its click opens the same page.
            onOpen={drill ? () => open(drill) : undefined}
          />
        ) : null
      }
    />
  );
}

const DashboardChart = lazy(() => import('./chartWidgets'));

/** A small chart of an analysis page (loaded with the first one on the dashboard). */
export function ChartWidget({
  chart,
  editing,
  actions,
}: {
  chart: DashboardChartKey;
  editing: boolean;
  actions: ReactNode;
}) {
  return (
    <Suspense fallback={<Skeleton height={360} radius="lg" data-testid="chart-loading" />}>
      <DashboardChart name={chart} editing={editing} actions={actions} />
    </Suspense>
  );
}
