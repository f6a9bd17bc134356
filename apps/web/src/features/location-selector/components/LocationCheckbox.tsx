import { Checkbox } from '@mantine/core';
import { locationCheckState } from '@helium/domain/locations';

export interface LocationCheckboxProps {
  id: string;
  label: string;
  selection: ReadonlySet<string>;
  onToggle: (id: string) => void;
}

/** A place's box: checked when all of it is selected, indeterminate when some of it is. */
export function LocationCheckbox({ id, label, selection, onToggle }: LocationCheckboxProps) {
  const state = locationCheckState(selection, id);
  return (
    <Checkbox
      label={label}
      checked={state === 'checked'}
      indeterminate={state === 'indeterminate'}
      onChange={() => onToggle(id)}
      data-location-id={id}
      data-state={state}
    />
  );
}
