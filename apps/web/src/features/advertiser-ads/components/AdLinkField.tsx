import { useEffect, useRef, useState } from 'react';
import { Badge, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEXT_LIMITS } from '@helium/contracts';
import { isHttpLink } from '@helium/domain/ads';
import { useTooLongText } from '../../forms/hooks/useIssueText.ts';

export const AUTOSAVE_DELAY_MS = 500;
export const SAVED_BADGE_MS = 1000;

/**
 * The redirect link: saved 500 ms after typing stops (an empty field clears it; anything else must be
 * an http(s) link), then "Saved" for 1 s. Read-only once the ad is submitted.
 */
export function AdLinkField(props: {
  adId: number;
  link: string | null;
  locked: boolean;
  disabled: boolean;
  onSave: (link: string) => Promise<void>;
}) {
  const { adId, link, locked, disabled, onSave } = props;
  const { t } = useTranslation();
  const [value, setValue] = useState(link ?? '');
  const [saved, setSaved] = useState(false);
  const lastSaved = useRef(link ?? '');
  const save = useRef(onSave);
  useEffect(() => {
    save.current = onSave;
  }, [onSave]);
  const trimmed = value.trim();
  const tooLong = useTooLongText()(value, TEXT_LIMITS.link);
  const invalid = (trimmed !== '' && !isHttpLink(trimmed)) || tooLong !== undefined;

  useEffect(() => {
    if (locked || invalid || trimmed === lastSaved.current) return;
    const timer = setTimeout(() => {
      save
        .current(trimmed)
        .then(() => {
          lastSaved.current = trimmed;
          setSaved(true);
        })
        .catch((error: unknown) => console.error('update-or-delete-ad failed', error));
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [trimmed, invalid, locked]);

  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), SAVED_BADGE_MS);
    return () => clearTimeout(timer);
  }, [saved]);

  return (
    <TextInput
      id={`ad-link-${adId}`}
      label={t('advertiserAds.link')}
      placeholder={t('advertiserAds.linkPlaceholder')}
      type="url"
      inputMode="url"
      value={value}
      readOnly={locked}
      disabled={disabled && !locked}
      description={locked ? t('advertiserAds.linkLocked') : undefined}
      error={tooLong ?? (invalid ? t('advertiserAds.linkInvalid') : undefined)}
      onChange={(event) => {
        setSaved(false);
        setValue(event.currentTarget.value);
      }}
      rightSectionWidth={110}
      rightSection={
        saved ? (
          <Badge color="green" variant="light" role="status">
            {t('advertiserAds.saved')}
          </Badge>
        ) : null
      }
    />
  );
}
