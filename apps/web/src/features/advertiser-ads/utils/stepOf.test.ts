import { describe, expect, it } from 'vitest';
import { validationSteps } from './stepOf.ts';

describe('validation steps', () => {
  it('highlights the step of each state', () => {
    expect(validationSteps(0)).toEqual({ keys: ['uploaded', 'pending', 'validated'], current: 0 });
    expect(validationSteps(3)).toEqual({ keys: ['uploaded', 'pending', 'validated'], current: 1 });
    expect(validationSteps(1)).toEqual({ keys: ['uploaded', 'pending', 'validated'], current: 2 });
    expect(validationSteps(2)).toEqual({ keys: ['uploaded', 'pending', 'declined'], current: 2 });
  });
});
