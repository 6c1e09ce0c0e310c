import { AnalysisPage } from '../../components/page/AnalysisPage';

/** productivity/history. Its analysis arrives in a later release; until then the header and an honest empty state. */
export default function ProductivityHistoryPage() {
  return <AnalysisPage topic="productivityHistory" />;
}
