import { AnalysisPage } from '../../components/page/AnalysisPage';

/** dashboards/statusboard (beta, separately loaded component). Its analysis arrives in a later release; until then the header and an honest empty state. */
export default function StatusboardPage() {
  return <AnalysisPage topic="statusboard" beta />;
}
