import { AnalysisPage } from '../../components/page/AnalysisPage';

/** failures/analysis. Its analysis arrives in a later release; until then the header and an honest empty state. */
export default function FailuresAnalysisPage() {
  return <AnalysisPage topic="failuresAnalysis" />;
}
