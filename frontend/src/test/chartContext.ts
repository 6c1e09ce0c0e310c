import { type ChartContext, chartTheme } from '../components/charts';

/**
 * A chart context for the transform tests: `t` returns the key (and its options after a
 * space), so tests read what was asked for.
 */
export function testContext(language = 'en'): ChartContext {
  return {
    language,
    theme: chartTheme('light'),
    t: (key, options) =>
      options && Object.keys(options).length > 0 ? `${key} ${JSON.stringify(options)}` : key,
  };
}
