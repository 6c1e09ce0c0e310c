import { AnalysisPage } from '../../components/page/AnalysisPage';

/** processes/analysis. Its analysis arrives in a later release; until then the header and an honest empty state. */
export default function ProcessesAnalysisPage() {
  return <AnalysisPage topic="processesAnalysis" />;
}
