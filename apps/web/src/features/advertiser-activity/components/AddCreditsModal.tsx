import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The add-credits modal, empty for now: its opening and closing are reported to the server. */
export function AddCreditsModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('activity.addCredits')}>
      {null}
    </Modal>
  );
}
