import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The e-mail of the user who holds an account: another existing user's e-mail moves the account to them. */
export function HolderField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <TextInput
      name="holderEmail"
      type="email"
      label={t('accounts.holder')}
      description={t('accounts.holderHint')}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
