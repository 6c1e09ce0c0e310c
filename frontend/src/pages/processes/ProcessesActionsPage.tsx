import { AnalysisPage } from '../../components/page/AnalysisPage';

/** processes/actions. Its analysis arrives in a later release; until then the header and an honest empty state. */
export default function ProcessesActionsPage() {
  return <AnalysisPage topic="processesActions" />;
}
