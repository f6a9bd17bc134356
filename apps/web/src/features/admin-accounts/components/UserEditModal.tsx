import { useState } from 'react';
import { Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEXT_LIMITS, type TUpdateAccountUserRequest } from '@helium/contracts';
import { ZUpdateAccountUserRequestSchema } from '@helium/contracts/admin-network';
import { topLevelField } from '../../forms/utils/issues.ts';
import { useModalAction } from '../hooks/useModalAction.ts';
import { ModalForm } from './ModalForm.tsx';

const fieldOf = topLevelField(['name', 'email'] as const);

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
  const { errors, busy, run } = useModalAction(onClose, fieldOf);
  return (
    <ModalForm
      title={t('accounts.editUser', { email: user.email })}
      error={errors.formError}
      busy={busy}
      onClose={onClose}
      onSubmit={() =>
        void run(
          'update-account-user',
          ZUpdateAccountUserRequestSchema,
          { userId: user.userId, name, email: email.trim(), locale },
          onSave,
        )
      }
    >
      <TextInput
        name="name"
        label={t('accounts.name')}
        value={name}
        onChange={(e) => {
          errors.clear('name');
          setName(e.currentTarget.value);
        }}
        error={errors.errorOf('name', { value: name, max: TEXT_LIMITS.name })}
      />
      <TextInput
        name="email"
        type="email"
        label={t('accounts.email')}
        value={email}
        onChange={(e) => {
          errors.clear('email');
          setEmail(e.currentTarget.value);
        }}
        error={errors.errorOf('email', { value: email, max: TEXT_LIMITS.email })}
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
