import { Alert, Button, Group, Menu, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import {
  IconCheck,
  IconDatabaseOff,
  IconLayoutGrid,
  IconPlus,
  IconRestore,
} from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type DashboardTile,
  type DashboardTileKey,
  loadDashboard,
  loadDashboardLayout,
  saveDashboardLayout,
} from '../../api/analytics';
import { failureText } from '../../api/client';
import {
  KpiTile,
  PartlyRecordedNote,
  Sparkline,
  useAnalyticsQuery,
  useChartContext,
} from '../../components/charts';
import { useDrillDown } from '../../components/drill/useDrillDown';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import { dashboardTileTarget } from '../../lib/drillDown';
import { ApproximateNote } from '../processes/ApproximateNote';
import { EditableWidget } from './DashboardWidgets';
import {
  addableTiles,
  addWidget,
  canRemove,
  DEFAULT_LAYOUT,
  isDefaultLayout,
  type KpiWidget,
  layoutToSave,
  moveWidget,
  moveWidgetTo,
  normalizeLayout,
  removeWidget,
} from './dashboardLayout';
import { dashboardTileModel } from './dashboardTiles';

/** dashboards/dashboard (beta): the user's KPI tiles with trends and sparklines, arrangeable. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const ctx = useChartContext();
  const { query, statusFor } = useAnalyticsQuery('dashboard', loadDashboard);
  // The tiles stay (the layout is edited on them); above them, why they are empty.
  const status = statusFor((dashboard) =>
    dashboard.tiles.every((tile) => tile.value === null || tile.value === 0),
  );
  const savedLayout = useQuery({ queryKey: ['dashboardLayout'], queryFn: loadDashboardLayout });
  const [layout, setLayout] = useState<KpiWidget[] | null>(null);
  const [editing, setEditing] = useState(false);
  const { open } = useDrillDown();
  // A sparkline lies above its tile's link (to be hovered): its click opens the same page.
  const openTile = (tile: string) => {
    const target = dashboardTileTarget(tile);
    if (target) {
      open(target);
    }
  };
  const save = useMutation({ mutationFn: saveDashboardLayout });
  const queryClient = useQueryClient();

  useEffect(() => {
    if (savedLayout.data && layout === null) {
      setLayout(normalizeLayout(savedLayout.data));
    }
  }, [savedLayout.data, layout]);

  const widgets = layout ?? (savedLayout.isError ? [...DEFAULT_LAYOUT] : null);
  const change = (next: KpiWidget[]) => {
    const body = layoutToSave(next);
    setLayout(next);
    // Keep the query cache in step, so coming back to the page shows this layout at once.
    queryClient.setQueryData(['dashboardLayout'], body);
    save.mutate(body);
  };

  const data = query.data;
  // Nothing sent (or no vehicle, no shift in the period): no count either; 'noEvents' has data.
  const periodWithoutData = status.kind === 'empty' && status.reason !== 'noEvents';
  const models = useMemo(() => {
    const byKey = new Map<DashboardTileKey, DashboardTile>(
      data?.tiles.map((tile) => [tile.key, tile]),
    );
    return (key: DashboardTileKey) => {
      const tile = byKey.get(key);
      return tile && data
        ? dashboardTileModel(tile, data.granularity, ctx, { periodWithoutData })
        : null;
    };
  }, [data, ctx, periodWithoutData]);

  const addable = widgets ? addableTiles(widgets) : [];
  const approximate = widgets?.some((widget) => models(widget.tile)?.approximate) ?? false;

  return (
    <AnalysisPage topic="dashboard" beta>
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <Button
              variant={editing ? 'filled' : 'light'}
              leftSection={editing ? <IconCheck size={16} /> : <IconLayoutGrid size={16} />}
              onClick={() => setEditing(!editing)}
              aria-pressed={editing}
              disabled={!widgets}
              data-testid="dashboard-edit"
            >
              {editing ? t('dashboard.done') : t('dashboard.editLayout')}
            </Button>
            {editing && widgets && (
              <>
                <Menu position="bottom-start" withinPortal>
                  <Menu.Target>
                    <Button
                      variant="light"
                      leftSection={<IconPlus size={16} />}
                      disabled={addable.length === 0}
                      data-testid="dashboard-add"
                    >
                      {t('dashboard.add')}
                    </Button>
                  </Menu.Target>
                  <Menu.Dropdown data-testid="dashboard-add-menu">
                    {addable.map((key) => (
                      <Menu.Item
                        key={key}
                        onClick={() => change(addWidget(widgets, key))}
                        data-testid={`dashboard-add-${key}`}
                      >
                        {t(`dashboard.tiles.${key}`)}
                      </Menu.Item>
                    ))}
                  </Menu.Dropdown>
                </Menu>
                <Button
                  variant="subtle"
                  leftSection={<IconRestore size={16} />}
                  disabled={isDefaultLayout(widgets)}
                  onClick={() => change([...DEFAULT_LAYOUT])}
                  data-testid="dashboard-reset"
                >
                  {t('dashboard.reset')}
                </Button>
              </>
            )}
          </Group>
          <Text
            size="sm"
            c={save.isError ? 'red' : 'dimmed'}
            data-testid="dashboard-save-state"
            data-state={save.status}
          >
            {save.isPending
              ? t('dashboard.saving')
              : save.isError
                ? t('dashboard.saveFailed')
                : save.isSuccess
                  ? t('dashboard.saved')
                  : ''}
          </Text>
        </Group>
        {query.isError && (
          <Alert
            color="red"
            variant="light"
            title={t('state.loadFailedTitle')}
            data-testid="dashboard-error"
          >
            <Group gap="sm">
              <Text size="sm">{failureText(query.error, t)}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
                {t('state.retry')}
              </Button>
            </Group>
          </Alert>
        )}
        {status.kind === 'empty' && (
          <Alert
            color="gray"
            variant="light"
            icon={<IconDatabaseOff size={20} />}
            title={t(`charts.empty.${status.reason}.title`)}
            data-testid="dashboard-empty"
            data-reason={status.reason}
          >
            {t(`charts.empty.${status.reason}.body`)}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="sm" data-testid="dashboard-widgets">
          {widgets
            ? widgets.map((widget, index) => {
                const model = models(widget.tile);
                const label = t(`dashboard.tiles.${widget.tile}`);
                return (
                  <EditableWidget
                    key={widget.id}
                    id={widget.id}
                    label={label}
                    editing={editing}
                    isFirst={index === 0}
                    isLast={index === widgets.length - 1}
                    canRemove={canRemove(widgets)}
                    onMove={(step) => change(moveWidget(widgets, widget.id, step))}
                    onDropOn={(dragged) => change(moveWidgetTo(widgets, dragged, widget.id))}
                    onRemove={() => change(removeWidget(widgets, widget.id))}
                  >
                    {(actions) =>
                      model ? (
                        <KpiTile
                          name={widget.tile}
                          label={label}
                          value={model.value}
                          trend={model.trend}
                          deltaText={model.deltaText}
                          previousText={model.previousText}
                          actions={actions}
                          // The page the tile summarises (not while the layout is edited).
                          drill={editing ? null : dashboardTileTarget(widget.tile)}
                          chart={
                            model.sparkline ? (
                              <Sparkline
                                model={model.sparkline}
                                height={48}
                                ariaLabel={t('dashboard.sparkline', { name: label })}
                                onOpen={editing ? undefined : () => openTile(widget.tile)}
                              />
                            ) : null
                          }
                        />
                      ) : (
                        <KpiTile
                          name={widget.tile}
                          label={label}
                          value={query.isPending ? '…' : t('charts.noValue')}
                          trend={null}
                          actions={actions}
                          drill={editing ? null : dashboardTileTarget(widget.tile)}
                        />
                      )
                    }
                  </EditableWidget>
                );
              })
            : Array.from({ length: 6 }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders while the layout loads
                <Skeleton key={index} height={150} radius="lg" />
              ))}
        </SimpleGrid>
        {data && status.kind === 'ready' && (
          <PartlyRecordedNote current={data.coverage} previous={data.previousCoverage} />
        )}
        <ApproximateNote shown={approximate} />
      </Stack>
    </AnalysisPage>
  );
}
