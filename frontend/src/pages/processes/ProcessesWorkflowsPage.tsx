import { AnalysisPage } from '../../components/page/AnalysisPage';

/** processes/workflows. Its analysis arrives in a later release; until then the header and an honest empty state. */
export default function ProcessesWorkflowsPage() {
  return <AnalysisPage topic="processesWorkflows" />;
}
