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
import { PartlyRecordedNote, useAnalyticsQuery, useChartContext } from '../../components/charts';
import { AnalysisPage } from '../../components/page/AnalysisPage';
import { ApproximateNote } from '../processes/ApproximateNote';
import { ChartWidget, EditableWidget, TileWidget } from './DashboardWidgets';
import {
  addableWidgets,
  addWidget,
  canRemove,
  choiceOf,
  DASHBOARD_CHART_TITLES,
  DEFAULT_LAYOUT,
  isDefaultLayout,
  layoutToSave,
  moveWidget,
  moveWidgetTo,
  normalizeLayout,
  removeWidget,
  type Widget,
  type WidgetChoice,
} from './dashboardLayout';
import { dashboardTileModel } from './dashboardTiles';

/**
 * dashboards/dashboard (beta): the user's KPI tiles with trends and sparklines and small
 * charts of the analysis pages, arrangeable.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const ctx = useChartContext();
  const { query, statusFor } = useAnalyticsQuery('dashboard', loadDashboard);
  // The tiles stay (the layout is edited on them); above them, why they are empty.
  const status = statusFor((dashboard) =>
    dashboard.tiles.every((tile) => tile.value === null || tile.value === 0),
  );
  const savedLayout = useQuery({ queryKey: ['dashboardLayout'], queryFn: loadDashboardLayout });
  const [layout, setLayout] = useState<Widget[] | null>(null);
  const [editing, setEditing] = useState(false);
  // One save after the other: quick changes must reach the server in the order made.
  const save = useMutation({ mutationFn: saveDashboardLayout, scope: { id: 'dashboardLayout' } });
  const queryClient = useQueryClient();

  useEffect(() => {
    if (savedLayout.data && layout === null) {
      setLayout(normalizeLayout(savedLayout.data));
    }
  }, [savedLayout.data, layout]);

  const widgets = layout ?? (savedLayout.isError ? [...DEFAULT_LAYOUT] : null);
  const change = (next: Widget[]) => {
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

  const addable = widgets ? addableWidgets(widgets) : [];
  const approximate =
    widgets?.some((widget) => widget.kind === 'kpi' && models(widget.tile)?.approximate) ?? false;
  const labelOf = (choice: WidgetChoice) =>
    t(choice.kind === 'kpi' ? `dashboard.tiles.${choice.key}` : DASHBOARD_CHART_TITLES[choice.key]);

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
                    {(['kpi', 'chart'] as const).map((kind) => {
                      const choices = addable.filter((choice) => choice.kind === kind);
                      return choices.length === 0 ? null : (
                        <div key={kind}>
                          <Menu.Label>
                            {kind === 'kpi' ? t('dashboard.addTiles') : t('dashboard.addCharts')}
                          </Menu.Label>
                          {choices.map((choice) => (
                            <Menu.Item
                              key={choice.key}
                              onClick={() => change(addWidget(widgets, choice))}
                              data-testid={`dashboard-add-${kind === 'kpi' ? '' : 'chart-'}${choice.key}`}
                            >
                              {labelOf(choice)}
                            </Menu.Item>
                          ))}
                        </div>
                      );
                    })}
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
            ? widgets.map((widget, index) => (
                <EditableWidget
                  key={widget.id}
                  id={widget.id}
                  label={labelOf(choiceOf(widget))}
                  editing={editing}
                  isFirst={index === 0}
                  isLast={index === widgets.length - 1}
                  canRemove={canRemove(widgets)}
                  tall={widget.kind === 'chart'}
                  onMove={(step) => change(moveWidget(widgets, widget.id, step))}
                  onDropOn={(dragged) => change(moveWidgetTo(widgets, dragged, widget.id))}
                  onRemove={() => change(removeWidget(widgets, widget.id))}
                >
                  {(actions) =>
                    widget.kind === 'kpi' ? (
                      <TileWidget
                        tile={widget.tile}
                        label={labelOf(choiceOf(widget))}
                        model={models(widget.tile)}
                        pending={status.kind === 'loading'}
                        editing={editing}
                        actions={actions}
                      />
                    ) : (
                      <ChartWidget chart={widget.chart} editing={editing} actions={actions} />
                    )
                  }
                </EditableWidget>
              ))
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
