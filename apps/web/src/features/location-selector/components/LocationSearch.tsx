import { CheckIcon, Combobox, Group, Loader, Text, TextInput, useCombobox, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchLocationsCall, type TLocation } from '@helium/contracts';
import { isLocationSelected, LOCATION_SEARCH_MAX_CHARS, LOCATION_SEARCH_MIN_CHARS } from '@helium/domain/locations';
import { apiPost } from '../../../api/client.ts';
import { errorText } from '../hooks/useLocationTree.ts';
import { placeLabel } from '../utils/locationList.ts';

/** How long typing must pause before the search is asked (ms). */
const SEARCH_DEBOUNCE_MS = 250;

export interface LocationSearchProps {
  selection: ReadonlySet<string>;
  /** Ticks or unticks the place as its box in the tree would. */
  onPick: (place: TLocation) => void;
}

/**
 * The widget's search box (issue 36): countries, regions and cities whose name holds what is typed, accents and
 * case aside, each shown with its region and country (search-locations). Arrows move through the matches, Enter
 * or a click ticks the place (or unticks it, as its box would); the matches stay open to pick more.
 */
export function LocationSearch({ selection, onPick }: LocationSearchProps) {
  const { t, i18n } = useTranslation();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [query, setQuery] = useState('');
  const [typed] = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const enabled = typed.length >= LOCATION_SEARCH_MIN_CHARS;
  const search = useQuery({
    queryKey: ['locations', 'search', i18n.resolvedLanguage, typed],
    queryFn: () => apiPost(searchLocationsCall, { query: typed }),
    enabled,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
  const places = enabled ? (search.data?.locations ?? []) : [];
  const settled = enabled && !search.isFetching && !search.isPlaceholderData;

  // The best match is the one Enter picks, as soon as new matches are there (not at every drawing: arrows move it).
  const store = useRef(combobox);
  store.current = combobox;
  const answer = settled ? search.data : undefined;
  useEffect(() => {
    if (answer && answer.locations.length > 0) store.current.selectFirstOption();
  }, [answer]);

  const status = search.isError
    ? t('locations.searchFailed', { message: errorText(search.error) })
    : query.trim().length > 0 && query.trim().length < LOCATION_SEARCH_MIN_CHARS
      ? t('locations.searchMinChars', { n: LOCATION_SEARCH_MIN_CHARS })
      : settled && places.length === 0
        ? t('locations.searchNone')
        : null;

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(id) => {
        const place = places.find((entry) => entry.id === id);
        if (place) onPick(place);
      }}
    >
      <Combobox.Target withExpandedAttribute>
        <TextInput
          label={t('locations.search')}
          placeholder={t('locations.searchPlaceholder')}
          value={query}
          maxLength={LOCATION_SEARCH_MAX_CHARS}
          data-testid="location-search"
          onChange={(event) => {
            setQuery(event.currentTarget.value);
            combobox.openDropdown();
            combobox.resetSelectedOption();
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          rightSection={enabled && search.isFetching ? <Loader size="xs" aria-label={t('common.loading')} /> : null}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={places.length === 0 && status === null}>
        <Combobox.Options mah={300} style={{ overflowY: 'auto' }} aria-label={t('locations.searchResults')}>
          {places.map((place) => {
            const selected = isLocationSelected(selection, place.id);
            return (
              <Combobox.Option value={place.id} key={place.id} data-location-match={place.id}>
                <Group gap={6} wrap="nowrap">
                  <span style={{ width: 12, flex: 'none' }}>{selected ? <CheckIcon size={12} /> : null}</span>
                  <Text size="sm" className="user-text">
                    {placeLabel(place)}
                  </Text>
                  {selected ? <VisuallyHidden>{t('locations.selected')}</VisuallyHidden> : null}
                </Group>
              </Combobox.Option>
            );
          })}
          {status !== null ? <Combobox.Empty>{status}</Combobox.Empty> : null}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
