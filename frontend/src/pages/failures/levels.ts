import type { ErrorLevel, LevelCounts } from '../../api/analytics-failures';

/** Error level colours, app-wide: WARNING amber, URGENT orange, CRITICAL and FATAL red. */
export const LEVEL_COLORS: Record<ErrorLevel, string> = {
  WARNING: '#f59f00',
  URGENT: '#f76707',
  CRITICAL: '#e03131',
  FATAL: '#a61e1e',
};

/** Mantine colour names for badges of the same levels. */
export const LEVEL_BADGE_COLORS: Record<ErrorLevel, string> = {
  WARNING: 'yellow',
  URGENT: 'orange',
  CRITICAL: 'red',
  FATAL: 'red',
};

export const LEVEL_KEYS: Record<ErrorLevel, keyof LevelCounts> = {
  WARNING: 'warning',
  URGENT: 'urgent',
  CRITICAL: 'critical',
  FATAL: 'fatal',
};

export function isErrorLevel(level: string): level is ErrorLevel {
  return level in LEVEL_COLORS;
}

export function levelColor(level: string): string {
  const upper = level.toUpperCase();
  return isErrorLevel(upper) ? LEVEL_COLORS[upper] : '#868e96';
}

/** The most severe level with a count, for a row's badge. */
export function worstLevel(levels: LevelCounts): ErrorLevel | null {
  const order: ErrorLevel[] = ['FATAL', 'CRITICAL', 'URGENT', 'WARNING'];
  return order.find((level) => levels[LEVEL_KEYS[level]] > 0) ?? null;
}

/** A stable colour per error type (hash of its name into a palette), same on every chart. */
const TYPE_PALETTE = [
  '#1c7ed6',
  '#9c36b5',
  '#0ca678',
  '#e8590c',
  '#c2255c',
  '#5c940d',
  '#1098ad',
  '#7048e8',
  '#d6336c',
  '#495057',
];

export function typeColor(errorType: string): string {
  let hash = 0;
  for (const char of errorType) {
    hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  }
  return TYPE_PALETTE[hash % TYPE_PALETTE.length] ?? '#495057';
}
