import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTypeAheadBuffer, findTypeAheadMatch, isTypeAheadKey, TYPE_AHEAD_RESET_MS } from './typeAhead.ts';

describe('type-ahead buffer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('clears 350 ms after the last key', () => {
    expect(TYPE_AHEAD_RESET_MS).toBe(350);
    const buffer = createTypeAheadBuffer();
    expect(buffer.push('e')).toBe('e');
    vi.advanceTimersByTime(349);
    expect(buffer.value).toBe('e');
    vi.advanceTimersByTime(1);
    expect(buffer.value).toBe('');
  });

  it('accumulates keys typed within the delay, each key restarting it', () => {
    const buffer = createTypeAheadBuffer();
    buffer.push('e');
    vi.advanceTimersByTime(300);
    expect(buffer.push('u')).toBe('eu');
    vi.advanceTimersByTime(300);
    expect(buffer.push('r')).toBe('eur');
    vi.advanceTimersByTime(349);
    expect(buffer.value).toBe('eur');
    vi.advanceTimersByTime(1);
    expect(buffer.value).toBe('');
  });

  it('starts a new search after the delay', () => {
    const buffer = createTypeAheadBuffer();
    buffer.push('e');
    vi.advanceTimersByTime(400);
    expect(buffer.push('b')).toBe('b');
  });

  it('can be cleared at once, for example when the menu closes', () => {
    const buffer = createTypeAheadBuffer();
    buffer.push('x');
    buffer.clear();
    expect(buffer.value).toBe('');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('findTypeAheadMatch', () => {
  const labels = ['Admin', 'Acme News', 'English', 'Français', 'Bitcoin', 'Euro', 'US Dollar', 'Sign out'];

  it('finds the first label starting with the query, ignoring case', () => {
    expect(findTypeAheadMatch(labels, 'a')).toBe(0);
    expect(findTypeAheadMatch(labels, 'AC')).toBe(1);
    expect(findTypeAheadMatch(labels, 'eu')).toBe(5);
    expect(findTypeAheadMatch(labels, 'fr')).toBe(3);
    expect(findTypeAheadMatch(labels, 'us d')).toBe(6);
  });

  it('answers -1 when nothing matches or the query is empty', () => {
    expect(findTypeAheadMatch(labels, 'z')).toBe(-1);
    expect(findTypeAheadMatch(labels, '')).toBe(-1);
  });
});

describe('isTypeAheadKey', () => {
  it('accepts single printable characters', () => {
    expect(isTypeAheadKey({ key: 'a' }, '')).toBe(true);
    expect(isTypeAheadKey({ key: 'ç' }, '')).toBe(true);
    expect(isTypeAheadKey({ key: '1' }, '')).toBe(true);
  });

  it('ignores named keys and modified keys', () => {
    expect(isTypeAheadKey({ key: 'ArrowDown' }, '')).toBe(false);
    expect(isTypeAheadKey({ key: 'Enter' }, 'a')).toBe(false);
    expect(isTypeAheadKey({ key: 'a', ctrlKey: true }, '')).toBe(false);
    expect(isTypeAheadKey({ key: 'a', metaKey: true }, '')).toBe(false);
  });

  it('takes a space only inside a search already begun', () => {
    expect(isTypeAheadKey({ key: ' ' }, '')).toBe(false);
    expect(isTypeAheadKey({ key: ' ' }, 'us')).toBe(true);
  });
});
