import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { AddCreditsContent } from './AddCreditsContent.tsx';

/**
 * The add-credits modal (specification 02, section 2.2); its opening and closing are reported to the server by
 * useActivityModals. Its content is mounted only while it is open, so each opening reads the purchase afresh.
 * Full screen on a phone.
 */
export function AddCreditsModal({
  opened,
  onClose,
  campaignExId,
  title,
}: {
  opened: boolean;
  onClose: () => void;
  campaignExId: number;
  title: string;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg" fullScreen={phone}>
      {opened ? <AddCreditsContent campaignExId={campaignExId} /> : null}
    </Modal>
  );
}
