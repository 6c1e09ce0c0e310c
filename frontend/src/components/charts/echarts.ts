/**
 * ECharts, tree-shaken: only the charts and components the pages use are registered.
 * Imported only by EChartCanvas (a lazy module), so ECharts stays out of the main chunk.
 * A page that needs another chart type registers it here (one line each).
 */
import { BarChart, CustomChart, HeatmapChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  AriaComponent,
  DatasetComponent,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { LabelLayout } from 'echarts/features';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([
  BarChart,
  LineChart,
  HeatmapChart,
  ScatterChart,
  // The failure map's density cells: rectangles in metres (a heatmap needs category axes).
  CustomChart,
  AriaComponent,
  DatasetComponent,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapComponent,
  // A series' `labelLayout` (the failure matrix's counts in narrow cells).
  LabelLayout,
  CanvasRenderer,
]);

export { echarts };
