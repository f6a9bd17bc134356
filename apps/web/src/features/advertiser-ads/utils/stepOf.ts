/** The three validation steps of an ad, and which one the admin state makes current. */
export type StepKey = 'uploaded' | 'pending' | 'validated' | 'declined';

export function validationSteps(validation: number): { keys: [StepKey, StepKey, StepKey]; current: 0 | 1 | 2 } {
  const last: StepKey = validation === 2 ? 'declined' : 'validated';
  const current = validation === 0 ? 0 : validation === 3 ? 1 : 2;
  return { keys: ['uploaded', 'pending', last], current };
}
