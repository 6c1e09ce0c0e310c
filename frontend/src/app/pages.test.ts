import { describe, expect, it } from 'vitest';
import de from '../i18n/de.json';
import en from '../i18n/en.json';
import { PAGES, type PageTopic } from './pages';

type Definitions = Record<string, { name: string; definition: string }>;

describe('the help of each page', () => {
  it('defines every KPI it names, in English and in German', () => {
    for (const page of PAGES) {
      for (const kpi of page.kpis) {
        for (const texts of [en.kpi, de.kpi] as Definitions[]) {
          expect(texts[kpi]?.name, `${page.topic}: ${kpi}`).toBeTruthy();
          expect(texts[kpi]?.definition, `${page.topic}: ${kpi}`).toBeTruthy();
        }
        expect((de.kpi as Definitions)[kpi]?.definition).not.toBe(
          (en.kpi as Definitions)[kpi]?.definition,
        );
      }
    }
  });

  it('says how percentiles are computed wherever a page shows them (product.md 3)', () => {
    const showingPercentiles: PageTopic[] = [
      'dashboard',
      'processesAnalysis',
      'processesWorkflows',
      'processesActions',
    ];
    for (const topic of showingPercentiles) {
      expect(PAGES.find((page) => page.topic === topic)?.kpis).toContain('percentiles');
    }
    expect(en.kpi.percentiles.definition).toMatch(/31 days.*0\.5 %/);
    expect(de.kpi.percentiles.definition).toMatch(/31 Tage.*0,5 %/);
  });
});
