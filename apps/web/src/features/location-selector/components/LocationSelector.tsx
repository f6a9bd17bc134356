import { Button, Group, Loader, Text } from '@mantine/core';
import { useCallback, useEffect, useId, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { TLocation } from '@helium/contracts';
import { parentLocationId, type CompactLocation } from '@helium/domain/locations';
import { useLocationSelection } from '../hooks/useLocationSelection.ts';
import { useLocationTree } from '../hooks/useLocationTree.ts';
import { DEFAULT_LOCATIONS_ENDPOINT } from '../utils/locationList.ts';
import { CountryNode } from './CountryNode.tsx';
import { LocationSearch } from './LocationSearch.tsx';

/** What a host may do with the widget (also set as methods on its element, `[data-location-selector]`). */
export interface LocationSelectorHandle {
  /** Replaces the selection: compact items (or ids); anything but an array logs an error and does nothing. */
  setSelections: (items: unknown) => Promise<void>;
  clearSelections: () => void;
}

export interface LocationSelectorProps {
  /** Where the list comes from (a POST); default /api/locations. */
  endpoint?: string;
  /** Applied once, when both the locations and these are there: compact items or location ids. */
  initialSelections?: ReadonlyArray<CompactLocation | string>;
  /** Called after every change with the compact selection (also a `selection-changed` event on the element). */
  onSelectionChange?: (selection: CompactLocation[]) => void;
  ref?: Ref<LocationSelectorHandle>;
}

/**
 * The location selector widget (specification 01, sections 2 and 4): a tree country > region > city with expand
 * arrows and tri-state boxes, loaded on mount. The rules of the selection are packages/domain/src/locations.ts.
 */
export function LocationSelector({
  endpoint = DEFAULT_LOCATIONS_ENDPOINT,
  initialSelections,
  onSelectionChange,
  ref,
}: LocationSelectorProps) {
  const { t } = useTranslation();
  const root = useRef<HTMLDivElement>(null);
  const locations = useLocationTree(endpoint);
  const { tree, entries, pending, loadCountries } = locations;
  const selection = useLocationSelection({ tree, entries, loadCountries, root, onSelectionChange });
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const baseId = useId();
  const domId = useCallback((id: string) => `${baseId}-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`, [baseId]);

  const handle = useMemo<LocationSelectorHandle>(
    () => ({ setSelections: selection.setSelections, clearSelections: selection.clearSelections }),
    [selection.setSelections, selection.clearSelections],
  );
  useImperativeHandle(ref, () => handle, [handle]);
  // The same methods on the element, for a host that is not React (and for the browser tests).
  useEffect(() => {
    const element = root.current;
    if (element) Object.assign(element, handle);
  }, [handle, locations.status]);

  const initialApplied = useRef(false);
  // The element says "loaded" once the initial selection is applied too (its countries may load first): a host
  // that sets a selection then is not overwritten, nor told of the initial one afterwards.
  const [initialDone, setInitialDone] = useState(!initialSelections?.length);
  const loaded = locations.status === 'loaded';
  useEffect(() => {
    if (initialApplied.current || !loaded || tree.countries.length === 0 || !initialSelections?.length) return;
    initialApplied.current = true;
    void selection.setSelections([...initialSelections]).finally(() => setInitialDone(true));
  }, [loaded, tree, initialSelections, selection]);

  const toggleExpanded = (id: string) => {
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
    if (pending.has(id)) void loadCountries([id]);
  };

  /** A place picked in the search: ticked or unticked as its box would be, and shown in the tree (unfolded to it). */
  const pickPlace = (place: TLocation) => {
    void selection.pick(place.id).then((known) => {
      if (!known) return;
      setExpanded((current) => {
        const next = new Set(current);
        for (let parent = parentLocationId(place.id); parent !== null; parent = parentLocationId(parent))
          next.add(parent);
        return next;
      });
    });
  };

  if (locations.status === 'loading') {
    return (
      <div ref={root} data-location-selector="loading">
        <Loader size="sm" aria-label={t('common.loading')} />
      </div>
    );
  }
  if (locations.status === 'error') {
    return (
      <Group ref={root} data-location-selector="error" gap="sm" role="alert">
        <Text c="red">{`Error: ${locations.error}`}</Text>
        <Button size="xs" variant="light" onClick={locations.retry}>
          {t('locations.retry')}
        </Button>
      </Group>
    );
  }

  const childrenOf = (id: string): TLocation[] =>
    (tree.children.get(id) ?? []).map((child) => entries.get(child)).filter((entry) => entry !== undefined);
  return (
    <div ref={root} data-location-selector={initialDone || tree.countries.length === 0 ? 'loaded' : 'applying'}>
      <LocationSearch selection={selection.selection} onPick={pickPlace} />
      <ul
        style={{ listStyle: 'none', margin: 0, marginTop: 'var(--mantine-spacing-sm)', padding: 0 }}
        aria-label={t('locations.label')}
      >
        {tree.countries.map((id) => {
          const country = entries.get(id)!;
          const regions = childrenOf(id).map((region) => ({ region, cities: childrenOf(region.id) }));
          return (
            <CountryNode
              key={id}
              country={country}
              regions={regions}
              expandable={pending.has(id) || regions.length > 0}
              load={locations.countryLoads.get(id)}
              expanded={expanded}
              onExpand={toggleExpanded}
              onRetry={(country) => void loadCountries([country])}
              selection={selection.selection}
              onToggle={selection.toggle}
              domId={domId}
            />
          );
        })}
      </ul>
    </div>
  );
}
