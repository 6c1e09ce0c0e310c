import { AnalysisPage } from '../../components/page/AnalysisPage';

/** dashboards/dashboard (beta, separately loaded module). Its analysis arrives in a later release; until then the header and an honest empty state. */
export default function DashboardPage() {
  return <AnalysisPage topic="dashboard" beta />;
}
