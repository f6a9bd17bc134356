import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../../api/client.ts';

/** Runs a modal's save: busy while it runs, closes on success, shows the server's refusal otherwise. */
export function useModalAction(onDone: () => void) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (label: string, action: () => Promise<unknown>) => {
    setError(null);
    setBusy(true);
    try {
      await action();
      onDone();
    } catch (caught) {
      console.error(`${label} failed`, caught);
      setError(apiErrorMessage(caught) ?? t('common.error'));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run };
}
