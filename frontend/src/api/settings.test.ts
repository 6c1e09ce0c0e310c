import { beforeEach, describe, expect, it } from 'vitest';
import { fakeFetch, jsonResponse, ok } from '../test/fakeServer';
import { clearResponseCache, configureRequestChain } from './client';
import {
  loadSettings,
  markOnboardingWatched,
  saveCombinedMode,
  saveDateFilter,
  saveDateFilterAndShift,
  saveVehiclesAndMode,
  saveWorkflowShift,
} from './settings';
import { loadVehicles, resetLoadedVehicles } from './vehicles';

function recordingFetch(count: number) {
  const fetchMock = fakeFetch(
    ...Array.from({ length: count }, () => () => jsonResponse(ok({ saved: true }))),
  );
  configureRequestChain({ fetch: fetchMock as unknown as typeof fetch });
  return fetchMock;
}

function sent(fetchMock: ReturnType<typeof fakeFetch>, index = 0) {
  const [url, init] = fetchMock.mock.calls[index] ?? [];
  return {
    url,
    method: init?.method,
    body: init?.body ? JSON.parse(String(init.body)) : undefined,
  };
}

beforeEach(() => {
  clearResponseCache();
  resetLoadedVehicles();
});

describe('saved operations of spec section 7, one call each', () => {
  it('load user app settings', async () => {
    const fetchMock = recordingFetch(1);
    await loadSettings();
    expect(sent(fetchMock)).toEqual({ url: '/v2/User/settings', method: 'GET', body: undefined });
  });

  it('save date filter', async () => {
    const fetchMock = recordingFetch(1);
    await saveDateFilter({ mode: 'month', from: '2026-03-01', to: '2026-03-31' });
    expect(sent(fetchMock)).toEqual({
      url: '/v2/User/settings',
      method: 'PATCH',
      body: { dateSelector: { mode: 'month', from: '2026-03-01', to: '2026-03-31' } },
    });
  });

  it('save date filter plus workflow shift', async () => {
    const fetchMock = recordingFetch(1);
    await saveDateFilterAndShift({
      mode: 'day',
      from: '2026-03-02',
      to: '2026-03-02',
      workflowShift: 'early',
    });
    expect(sent(fetchMock).body).toEqual({
      dateSelector: { mode: 'day', from: '2026-03-02', to: '2026-03-02', workflowShift: 'early' },
    });
  });

  it('save combined mode', async () => {
    const fetchMock = recordingFetch(1);
    await saveCombinedMode({ combined: true });
    expect(sent(fetchMock).body).toEqual({ dateSelector: { combined: true } });
  });

  it('save vehicles plus mode', async () => {
    const fetchMock = recordingFetch(1);
    await saveVehiclesAndMode({ selectedMachines: [3, 1], combined: false });
    expect(sent(fetchMock).body).toEqual({
      selectedMachines: [3, 1],
      dateSelector: { combined: false },
    });
  });

  it('sends vehicle ids as numbers and a shift id as text, as the server documents them', async () => {
    const fetchMock = recordingFetch(2);
    await saveVehiclesAndMode({ selectedMachines: ['3', 1], combined: true });
    expect(sent(fetchMock).body).toEqual({
      selectedMachines: [3, 1],
      dateSelector: { combined: true },
    });
    await saveWorkflowShift({ workflowShift: 7 });
    expect(sent(fetchMock, 1).body).toEqual({ dateSelector: { workflowShift: '7' } });
  });

  it('save workflow shift', async () => {
    const fetchMock = recordingFetch(1);
    await saveWorkflowShift({ workflowShift: 'all' });
    expect(sent(fetchMock).body).toEqual({ dateSelector: { workflowShift: 'all' } });
  });

  it('mark analytics onboarding as watched', async () => {
    const fetchMock = recordingFetch(1);
    await markOnboardingWatched();
    expect(sent(fetchMock)).toMatchObject({ method: 'PATCH', body: { onboardingWatched: true } });
  });

  it('load vehicles for the selected machines, skipped if already loaded', async () => {
    const fetchMock = fakeFetch(() => jsonResponse(ok([{ id: 1, name: 'AGV-01' }])));
    configureRequestChain({ fetch: fetchMock as unknown as typeof fetch });
    const [first, second] = await Promise.all([loadVehicles(), loadVehicles()]);
    clearResponseCache();
    const third = await loadVehicles();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(sent(fetchMock).url).toBe('/v2/Vehicles');
    expect(first).toEqual([{ id: 1, name: 'AGV-01' }]);
    expect(second).toBe(first);
    expect(third).toBe(first);
  });
});
