import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The e-mail of the user who holds an account: another existing user's e-mail moves the account to them. */
export function HolderField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  /** Why it was refused (an e-mail no user has), in the user's language. */
  error?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      name="holderEmail"
      type="email"
      label={t('accounts.holder')}
      description={t('accounts.holderHint')}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
    />
  );
}
