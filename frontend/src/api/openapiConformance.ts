/**
 * The frontend's API types follow the server's OpenAPI document (product.md section 5),
 * checked when the code is type-checked: every answer the server documents fits the type the
 * frontend reads it as, and every body the frontend sends fits what the server accepts.
 * `schema.gen.ts` is generated from the document (`make api-types`; `make test` fails while it
 * is not current), so a server change that a page would misread fails the type check here.
 * A type the frontend reads exactly as documented is an alias of its schema
 * (`Kpis = Schemas['Kpis']`); the ones listed here are read differently (fields optional for
 * older servers, ids as `Id`, named unions) and must still fit.
 */
import type {
  ApiToken,
  AuditEntry,
  DeadLetter,
  DeadLetterPage,
  Job,
  PreviewOrder,
  PreviewRule,
  ReingestResult,
  SiteAdmin,
  SiteCreate,
  SitePatch,
  SiteUpdated,
  TokenCreated,
  UserAdmin,
  UserCreate,
  UserCreated,
  UserPatch,
  VehicleAdmin,
  VehiclePatch,
  VehicleUpdated,
  WorkflowPreview,
} from './adminTypes';
import type {
  Dashboard,
  DashboardTile,
  HistoryBucket,
  KpiGrid,
  Productivity,
  ProductivityHistory,
  StateTimes,
} from './analytics';
import type { BatteryEntry, BatteryFigures, BatteryResult } from './analytics-battery';
import type {
  ErrorEpisode,
  FailureMapResult,
  FailureMatrixResult,
  FailuresResult,
} from './analytics-failures';
import type {
  ActionsResult,
  AnalyticsPeriod,
  CycleTimes,
  FailedAction,
  Page,
  ProcessEntry,
  ProcessesResult,
  ProcessFigures,
  WorkflowHistogramResult,
  WorkflowOrder,
  WorkflowsResult,
} from './analytics-processes';
import type { Schemas } from './schema';
import type { AppSettings, DateSelectorSettings, Shift, Site, User, Vehicle } from './types';

/** Whether every value of `Sent` is a value of `Read`. */
type Fits<Sent, Read> = [Sent] extends [Read] ? true : false;
type Check<T extends true> = T;

/** Answers: the documented schema (what arrives) fits the frontend's type. */
export type ServerAnswersFit = [
  Check<Fits<Schemas['SiteAdmin'], SiteAdmin>>,
  Check<Fits<Schemas['SiteUpdated'], SiteUpdated>>,
  Check<Fits<Schemas['VehicleUpdated'], VehicleUpdated>>,
  Check<Fits<Schemas['UserCreated'], UserCreated>>,
  Check<Fits<Schemas['TokenCreated'], TokenCreated>>,
  Check<Fits<Schemas['JobOut'], Job>>,
  Check<Fits<Schemas['RulePreviewOut'], PreviewRule>>,
  Check<Fits<Schemas['OrderPreviewOut'], PreviewOrder>>,
  Check<Fits<Schemas['WorkflowPreviewOut'], WorkflowPreview>>,
  Check<Fits<Schemas['VehicleAdmin'], VehicleAdmin>>,
  Check<Fits<Schemas['UserAdmin'], UserAdmin>>,
  Check<Fits<Schemas['TokenOut'], ApiToken>>,
  Check<Fits<Schemas['DeadLetterOut'], DeadLetter>>,
  Check<Fits<Schemas['DeadLetterPage'], DeadLetterPage>>,
  Check<Fits<Schemas['ReingestOut'], ReingestResult>>,
  Check<Fits<Schemas['AuditEntryOut'], AuditEntry>>,
  Check<Fits<Schemas['BatteryFigures'], BatteryFigures>>,
  Check<Fits<Schemas['BatteryEntry'], BatteryEntry>>,
  Check<Fits<Schemas['BatteryOut'], BatteryResult>>,
  Check<Fits<Schemas['FailuresOut'], FailuresResult>>,
  Check<Fits<Schemas['FailureMatrixOut'], FailureMatrixResult>>,
  Check<Fits<Schemas['FailureMapOut'], FailureMapResult>>,
  Check<Fits<Schemas['Page_ErrorEpisodeRow_'], Page<ErrorEpisode>>>,
  Check<Fits<Schemas['CycleTimes'], CycleTimes>>,
  Check<Fits<Schemas['ProcessFigures'], ProcessFigures>>,
  Check<Fits<Schemas['ProcessEntry'], ProcessEntry>>,
  Check<Fits<Schemas['ProcessesOut'], ProcessesResult>>,
  Check<Fits<Schemas['WorkflowsOut'], WorkflowsResult>>,
  Check<Fits<Schemas['Page_WorkflowOrder_'], Page<WorkflowOrder>>>,
  Check<Fits<Schemas['WorkflowHistogramOut'], WorkflowHistogramResult>>,
  Check<Fits<Schemas['ActionsOut'], ActionsResult>>,
  Check<Fits<Schemas['Page_FailedAction_'], Page<FailedAction>>>,
  Check<Fits<Schemas['PeriodOut'], AnalyticsPeriod>>,
  Check<Fits<Schemas['StateTimes'], StateTimes>>,
  Check<Fits<Schemas['ProductivityOut'], Productivity>>,
  Check<Fits<Schemas['HistoryBucket'], HistoryBucket>>,
  Check<Fits<Schemas['KpiGrid'], KpiGrid>>,
  Check<Fits<Schemas['ProductivityHistoryOut'], ProductivityHistory>>,
  Check<Fits<Schemas['DashboardTile'], DashboardTile>>,
  Check<Fits<Schemas['DashboardOut'], Dashboard>>,
  Check<Fits<Schemas['UserOut'], User>>,
  Check<Fits<Schemas['AppSettingsOut'], AppSettings>>,
  Check<Fits<Schemas['DateSelector'], DateSelectorSettings>>,
  Check<Fits<Schemas['VehicleOut'], Vehicle>>,
  Check<Fits<Schemas['SiteOut'], Site>>,
  Check<Fits<Schemas['ShiftOut'], Shift>>,
];

/**
 * Request bodies the pages build: the frontend's type (what it sends) fits the documented
 * schema. Bodies the API functions build themselves are checked where they are built
 * (`satisfies Schemas[...]` in `admin.ts`, `user.ts`, `settings.ts`, `events.ts`).
 */
export type RequestsFit = [
  Check<Fits<SiteCreate, Schemas['SiteCreate']>>,
  Check<Fits<SitePatch, Schemas['SitePatch']>>,
  Check<Fits<VehiclePatch, Schemas['VehiclePatch']>>,
  Check<Fits<UserCreate, Schemas['UserCreate']>>,
  Check<Fits<UserPatch, Schemas['UserPatchAdmin']>>,
];
