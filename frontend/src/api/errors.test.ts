import { describe, expect, it } from 'vitest';
import { classifyNavigationFailure, errorHeaderKey, makeError } from './errors';

describe('error objects', () => {
  it('carry application analytics and all fields of spec section 3', () => {
    expect(
      makeError({ type: 'NETWORK', url: '/v2/X', user: 'a@b', message: 'm', body: '{}' }),
    ).toEqual({
      application: 'analytics',
      type: 'NETWORK',
      url: '/v2/X',
      user: 'a@b',
      message: 'm',
      body: '{}',
    });
  });

  it('header key is the lowercased type plus .header', () => {
    expect(errorHeaderKey('NETWORK')).toBe('network.header');
    expect(errorHeaderKey('NO_INTERNET')).toBe('no_internet.header');
    expect(errorHeaderKey('CHUNK')).toBe('chunk.header');
  });
});

describe('classifyNavigationFailure', () => {
  const base = { url: '#/battery', user: 'u@x' };

  it('a chunk failure while online is a chunk error', () => {
    const error = new TypeError(
      'Failed to fetch dynamically imported module: /assets/Battery-1.js',
    );
    expect(classifyNavigationFailure({ ...base, error, online: true })?.type).toBe('CHUNK');
    const webpackStyle = new Error('Loading chunk 7 failed');
    expect(classifyNavigationFailure({ ...base, error: webpackStyle, online: true })?.type).toBe(
      'CHUNK',
    );
  });

  it('offline is a no-internet error', () => {
    const error = new Error('Loading chunk 7 failed');
    expect(classifyNavigationFailure({ ...base, error, online: false })?.type).toBe('NO_INTERNET');
  });

  it('other failures while online are not classified', () => {
    expect(
      classifyNavigationFailure({ ...base, error: new Error('boom'), online: true }),
    ).toBeNull();
  });
});
