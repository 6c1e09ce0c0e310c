import { AnalysisPage } from '../../components/page/AnalysisPage';

/** productivity/analysis. Its analysis arrives in a later release; until then the header and an honest empty state. */
export default function ProductivityAnalysisPage() {
  return <AnalysisPage topic="productivityAnalysis" />;
}
