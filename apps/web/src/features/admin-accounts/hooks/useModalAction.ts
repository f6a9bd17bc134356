import { useState } from 'react';
import type { z } from 'zod';
import { checkRequest } from '@helium/contracts/issues';
import { useFieldErrors } from '../../forms/hooks/useFieldErrors.ts';
import type { FieldOf } from '../../forms/utils/issues.ts';

/**
 * Runs a modal's save: the request checked by its contract first (each refusal beside its field, nothing sent),
 * busy while it runs, closed on success, the server's refusal beside its field (or the form's) otherwise.
 */
export function useModalAction<F extends string>(onDone: () => void, fieldOf: FieldOf<F>) {
  const errors = useFieldErrors(fieldOf);
  const [busy, setBusy] = useState(false);
  const run = async <S extends z.ZodType>(
    label: string,
    schema: S,
    request: z.input<S>,
    action: (request: z.input<S>) => Promise<unknown>,
  ) => {
    if (!errors.check(checkRequest(schema, request))) return;
    setBusy(true);
    try {
      await action(request);
      onDone();
    } catch (caught) {
      console.error(`${label} failed`, caught);
      errors.refused(caught);
    } finally {
      setBusy(false);
    }
  };
  return { errors, busy, run };
}
