/**
 * A number field as typed (Mantine's NumberInput gives a number, or text while it is not one), as a request takes
 * it: empty = absent (the contract says whether that is allowed), anything else the number it reads, a comma as the
 * decimal point; text that is no number stays NaN, which the contract refuses. Never rounded nor brought into a
 * range here (issue 36, point 2): the contract refuses what is out of it, beside the field.
 */
export function typedNumber(value: number | string): number | undefined {
  if (typeof value === 'number') return value;
  const text = value.trim();
  return text === '' ? undefined : Number(text.replace(',', '.'));
}
