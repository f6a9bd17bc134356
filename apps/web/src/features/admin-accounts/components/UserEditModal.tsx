import { useState } from 'react';
import { Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TUpdateAccountUserRequest } from '@helium/contracts';
import { useModalAction } from '../hooks/useModalAction.ts';
import { ModalForm } from './ModalForm.tsx';

export interface EditedUser {
  userId: number;
  name: string;
  email: string;
  locale: 'en' | 'fr';
}

/** Edit a user's name, e-mail and language (no admin flag here: admins are made only in the database). */
export function UserEditModal({
  user,
  onClose,
  onSave,
}: {
  user: EditedUser;
  onClose: () => void;
  onSave: (request: TUpdateAccountUserRequest) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [locale, setLocale] = useState<'en' | 'fr'>(user.locale);
  const { error, busy, run } = useModalAction(onClose);
  return (
    <ModalForm
      title={t('accounts.editUser', { email: user.email })}
      error={error}
      busy={busy}
      onClose={onClose}
      onSubmit={() =>
        void run('update-account-user', () => onSave({ userId: user.userId, name, email: email.trim(), locale }))
      }
    >
      <TextInput name="name" label={t('accounts.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <TextInput
        name="email"
        type="email"
        label={t('accounts.email')}
        value={email}
        onChange={(e) => setEmail(e.currentTarget.value)}
      />
      <Select
        name="locale"
        label={t('accounts.locale')}
        value={locale}
        onChange={(value) => value && setLocale(value as 'en' | 'fr')}
        data={[
          { value: 'en', label: 'English' },
          { value: 'fr', label: 'Français' },
        ]}
        allowDeselect={false}
      />
    </ModalForm>
  );
}
