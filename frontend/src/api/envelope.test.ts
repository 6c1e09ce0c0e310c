import { describe, expect, it } from 'vitest';
import { dataOf, emptyFailedBody, messageOf, unwrapEnvelope } from './envelope';

describe('unwrapEnvelope (spec section 7, literal)', () => {
  it('status and data set, msg present: the body is replaced by msg', () => {
    expect(unwrapEnvelope({ status: true, msg: 'saved', data: { id: 1 } })).toBe('saved');
  });

  it('status and data set, no msg: the body is kept', () => {
    const body = { status: true, msg: null, data: { id: 1 } };
    expect(unwrapEnvelope(body)).toBe(body);
    const emptyMsg = { status: true, msg: '', data: [1] };
    expect(unwrapEnvelope(emptyMsg)).toBe(emptyMsg);
  });

  it('falsy but set data (false, 0, empty list) counts as set', () => {
    for (const data of [false, 0, '', []]) {
      const body = { status: true, msg: null, data };
      expect(unwrapEnvelope(body)).toBe(body);
    }
  });

  it('otherwise, data an array: the result is an empty list', () => {
    expect(unwrapEnvelope({ status: false, msg: 'bad', data: [1, 2] })).toEqual([]);
  });

  it('otherwise, data not an array: passed through unchanged', () => {
    const noData = { status: true, msg: 'nothing', data: null };
    expect(unwrapEnvelope(noData)).toBe(noData);
    const failedBody = { status: false, msg: 'bad', data: { field: 'x' } };
    expect(unwrapEnvelope(failedBody)).toBe(failedBody);
  });

  it('a body that is no envelope is passed through', () => {
    expect(unwrapEnvelope('<html>')).toBe('<html>');
    expect(unwrapEnvelope(null)).toBeNull();
    expect(unwrapEnvelope([1])).toEqual([1]);
  });
});

describe('dataOf / messageOf', () => {
  it('reads data of a kept envelope and passes other bodies through', () => {
    expect(dataOf({ status: true, msg: null, data: { a: 1 } })).toEqual({ a: 1 });
    expect(dataOf([])).toEqual([]);
    expect(dataOf('text')).toBe('text');
  });

  it('finds the message of envelopes and replaced bodies', () => {
    expect(messageOf({ status: false, msg: 'no', data: null })).toBe('no');
    expect(messageOf('replaced')).toBe('replaced');
    expect(messageOf([])).toBeNull();
  });

  it('an empty failed body has status false and nothing else', () => {
    expect(emptyFailedBody()).toEqual({ status: false, msg: null, data: null });
  });
});
