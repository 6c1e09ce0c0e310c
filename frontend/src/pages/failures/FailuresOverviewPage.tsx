import { AnalysisPage } from '../../components/page/AnalysisPage';

/** failures/overview. Its analysis arrives in a later release; until then the header and an honest empty state. */
export default function FailuresOverviewPage() {
  return <AnalysisPage topic="failuresOverview" />;
}
