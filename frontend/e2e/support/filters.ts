import { expect, type Page } from '@playwright/test';

/** The selectors of the page header (period, machines, combined, shift) and their saving. */

/** A calendar day (YYYY-MM-DD) in the browser's time zone, `offsetDays` from today. */
export function berlinDay(offsetDays: number): string {
  return berlinDayAt(Date.now() + offsetDays * 24 * 60 * 60 * 1000);
}

/** The Berlin day (YYYY-MM-DD) of an instant in epoch milliseconds. */
export function berlinDayAt(instant: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(instant));
}

/**
 * Saved settings for yesterday and today (the global setup backfills `--days 2`, so both
 * hold data), every vehicle and all shifts.
 */
export function backfilledSelection({ combined = false } = {}) {
  return {
    dateSelector: {
      mode: 'custom',
      from: berlinDay(-1),
      to: berlinDay(0),
      combined,
      workflowShift: 'all',
    },
    selectedMachines: [],
  };
}

export interface ApiShift {
  id: string | number;
  name: string;
}

export interface ApiSite {
  id: string | number;
  name: string;
  shifts: ApiShift[];
}

export async function sites(page: Page): Promise<ApiSite[]> {
  return (await (await page.request.get('/v2/Sites')).json()).data as ApiSite[];
}

export function machineSelector(page: Page) {
  return page.getByTestId('machine-selector');
}

/** Names of the selected machines, as shown in the selector's pills. */
export function machinePills(page: Page) {
  return page.getByTestId('filter-bar').locator('.mantine-MultiSelect-pill');
}

/** Runs `action` and returns the body of the settings PATCH it caused (which must succeed). */
export async function savedAfter(page: Page, action: () => Promise<void>): Promise<unknown> {
  const request = page.waitForRequest(
    (candidate) => candidate.method() === 'PATCH' && candidate.url().endsWith('/v2/User/settings'),
  );
  const response = page.waitForResponse(
    (candidate) =>
      candidate.request().method() === 'PATCH' && candidate.url().endsWith('/v2/User/settings'),
  );
  await action();
  const body = (await request).postDataJSON() as unknown;
  expect((await response).ok()).toBe(true);
  return body;
}
