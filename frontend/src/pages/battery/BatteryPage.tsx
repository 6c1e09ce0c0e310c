import { AnalysisPage } from '../../components/page/AnalysisPage';

/** battery. Its analysis arrives in a later release; until then the header and an honest empty state. */
export default function BatteryPage() {
  return <AnalysisPage topic="battery" />;
}
