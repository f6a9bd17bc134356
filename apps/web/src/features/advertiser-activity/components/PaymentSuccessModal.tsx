import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The thanks shown on returning from a successful card payment. */
export function PaymentSuccessModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('activity.buySuccess')}>
      <Text>{t('activity.buyThanks')}</Text>
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose}>{t('activity.ok')}</Button>
      </Group>
    </Modal>
  );
}
