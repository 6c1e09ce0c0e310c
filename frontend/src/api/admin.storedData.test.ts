import { beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../app/queryClient';
import { chainHarness } from '../test/chainHarness';
import { fakeFetch, jsonResponse, ok } from '../test/fakeServer';
import { getJob, onStoredDataChange, updateSite } from './admin';
import type { Job } from './adminTypes';
import { callApi, responseCacheSize } from './client';

const { reset, setup } = chainHarness();
beforeEach(reset);

function job(id: number, state: Job['state']): Job {
  const done = state === 'done' ? 100 : 10;
  return {
    id,
    state,
    reason: 'workflowRules',
    vehicleIds: [1],
    framesTotal: 100,
    framesDone: done,
    percent: done,
    createdAt: '2026-11-27T20:00:00Z',
    createdBy: 'superuser@demo.fleetscope',
  };
}

describe('stored data changes', () => {
  it('tells the pages after a change and again when its re-derivation has ended', async () => {
    setup(
      fakeFetch(
        () => jsonResponse(ok([])), // an analytics answer, cached
        () => jsonResponse(ok({ site: { id: 1 }, job: job(7, 'queued') })),
        () => jsonResponse(ok([])), // analytics asked again during the re-derivation
        () => jsonResponse(ok(job(7, 'running'))),
        () => jsonResponse(ok(job(7, 'done'))),
        () => jsonResponse(ok(job(7, 'done'))),
      ),
    );
    const changed = vi.fn();
    const stop = onStoredDataChange(changed);
    await callApi('/v2/Analytics/Workflows');
    expect(responseCacheSize()).toBe(1);

    await updateSite(1, { workflowRules: ['^(?P<workflow>[A-Z]+)'] });
    expect(changed).toHaveBeenCalledTimes(1);
    expect(responseCacheSize()).toBe(0);

    await callApi('/v2/Analytics/Workflows');
    await getJob(7);
    expect(changed).toHaveBeenCalledTimes(1); // still working: the facts are those of before
    expect(responseCacheSize()).toBe(1);
    await getJob(7);
    expect(changed).toHaveBeenCalledTimes(2); // ended: what was read meanwhile is stale
    expect(responseCacheSize()).toBe(0);
    await getJob(7);
    expect(changed).toHaveBeenCalledTimes(2); // once per job
    stop();
  });
});

describe('the pages after a stored data change', () => {
  it('mark their analytics, vehicles and sites stale, not the admin pages or settings', async () => {
    setup(fakeFetch(() => jsonResponse(ok({ site: { id: 1 }, job: null }))));
    for (const key of [
      ['analytics', 'workflows'],
      ['vehicles'],
      ['admin', 'sites'],
      ['settings'],
    ]) {
      queryClient.setQueryData(key, []);
    }
    await updateSite(1, { name: 'Werk Süd' });
    const stale = (key: string[]) => queryClient.getQueryState(key)?.isInvalidated;
    expect([stale(['analytics', 'workflows']), stale(['vehicles'])]).toEqual([true, true]);
    expect([stale(['admin', 'sites']), stale(['settings'])]).toEqual([false, false]);
    queryClient.clear();
  });
});
