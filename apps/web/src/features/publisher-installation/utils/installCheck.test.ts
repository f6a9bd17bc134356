import { describe, expect, it } from 'vitest';
import { checkDurationMs, checkPhaseOver, instructionsVariant, progressPct } from './installCheck.ts';

describe('installation check', () => {
  it('lasts the configured seconds, 5 s when missing or not greater than 0', () => {
    expect(checkDurationMs(3)).toBe(3000);
    expect(checkDurationMs(0.5)).toBe(500);
    expect(checkDurationMs(0)).toBe(5000);
    expect(checkDurationMs(-2)).toBe(5000);
    expect(checkDurationMs(null)).toBe(5000);
    expect(checkDurationMs(Number.NaN)).toBe(5000);
  });

  it('fills the bar in proportion to the time spent, within 0-100', () => {
    expect(progressPct(0, 5000)).toBe(0);
    expect(progressPct(2500, 5000)).toBe(50);
    expect(progressPct(9000, 5000)).toBe(100);
    expect(progressPct(-10, 5000)).toBe(0);
    expect(progressPct(10, 0)).toBe(100);
  });

  it('ends once the time is up and check-install has answered, or the time has run twice over', () => {
    expect(checkPhaseOver(1000, 5000, true)).toBe(false);
    expect(checkPhaseOver(5000, 5000, true)).toBe(true);
    expect(checkPhaseOver(5000, 5000, false)).toBe(false);
    expect(checkPhaseOver(9999, 5000, false)).toBe(false);
    expect(checkPhaseOver(10_000, 5000, false)).toBe(true);
  });

  it('gives publisher 60 only the code-line variant in French', () => {
    expect(instructionsVariant('en', 1)).toBe('english');
    expect(instructionsVariant('en', 60)).toBe('english');
    expect(instructionsVariant('fr', 1)).toBe('frenchTwoOptions');
    expect(instructionsVariant('fr', 60)).toBe('frenchCodeLine');
  });
});
