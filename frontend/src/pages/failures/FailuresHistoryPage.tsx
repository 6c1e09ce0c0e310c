import { AnalysisPage } from '../../components/page/AnalysisPage';

/** failures/history. Its analysis arrives in a later release; until then the header and an honest empty state. */
export default function FailuresHistoryPage() {
  return <AnalysisPage topic="failuresHistory" />;
}
