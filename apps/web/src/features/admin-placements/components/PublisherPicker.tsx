import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TPlacementPublisher } from '@helium/contracts';

/** Chooses the web publisher whose placements are shown. */
export function PublisherPicker({
  publishers,
  value,
  onChange,
}: {
  publishers: readonly TPlacementPublisher[];
  value: number | null;
  onChange: (publisherId: number | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('placements.publisher')}
      placeholder={t('placements.choosePublisher')}
      searchable
      nothingFoundMessage={t('placements.noPublisher')}
      data={publishers.map((publisher) => ({
        value: String(publisher.id),
        label: `${publisher.brand}${publisher.domain ? ` (${publisher.domain})` : ''} · ${t('placements.count', { n: publisher.placementCount })}`,
      }))}
      value={value === null ? null : String(value)}
      onChange={(chosen) => onChange(chosen ? Number(chosen) : null)}
      maw={520}
    />
  );
}
