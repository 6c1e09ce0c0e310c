import { AnalysisPage } from '../../components/page/AnalysisPage';

/** failures/visualization. Its analysis arrives in a later release; until then the header and an honest empty state. */
export default function FailuresVisualizationPage() {
  return <AnalysisPage topic="failuresVisualization" />;
}
