import type { ErrorLevel, LevelCounts } from '../../api/analytics-failures';
import { lookByPosition } from '../../components/charts';

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

/**
 * Ten hues apart from each other and from the track's grey, handed out by position in a
 * chart's list of types: a hash of the name would give some types of a chart one colour.
 */
const TYPE_PALETTE: [string, ...string[]] = [
  '#1c7ed6',
  '#e8590c',
  '#0ca678',
  '#9c36b5',
  '#f59f00',
  '#c2255c',
  '#5c940d',
  '#1098ad',
  '#7048e8',
  '#795548',
];
const TYPE_SYMBOLS: [string, ...string[]] = ['circle', 'diamond', 'triangle', 'roundRect'];

export interface TypeStyle {
  color: string;
  symbol: string;
}

/**
 * A distinct look per error type of one chart, in the order given: the palette's colours
 * first, then the same colours again in the next symbol, so forty types stay apart.
 */
export function typeStyles(types: readonly string[]): Map<string, TypeStyle> {
  return new Map(
    types.map((type, index) => {
      const { color, round: symbol } = lookByPosition(TYPE_PALETTE, TYPE_SYMBOLS, index);
      return [type, { color, symbol }];
    }),
  );
}
