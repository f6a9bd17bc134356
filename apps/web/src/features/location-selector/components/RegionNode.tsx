import { Group, SimpleGrid } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TLocation } from '@helium/contracts';
import { ArrowSpace, ExpandArrow } from './ExpandArrow.tsx';
import { LocationCheckbox } from './LocationCheckbox.tsx';

export interface RegionNodeProps {
  region: TLocation;
  cities: readonly TLocation[];
  expanded: boolean;
  onExpand: (id: string) => void;
  selection: ReadonlySet<string>;
  onToggle: (id: string) => void;
  domId: (id: string) => string;
}

/** A region: its arrow and box, and when expanded its cities in 1, 2 or 3 columns by width. */
export function RegionNode({ region, cities, expanded, onExpand, selection, onToggle, domId }: RegionNodeProps) {
  const { t } = useTranslation();
  const name = region.region ?? region.id;
  return (
    <li>
      <Group gap={4} wrap="nowrap">
        {cities.length > 0 ? (
          <ExpandArrow
            expanded={expanded}
            label={t(expanded ? 'locations.collapse' : 'locations.expand', { name })}
            controls={domId(region.id)}
            onToggle={() => onExpand(region.id)}
          />
        ) : (
          <ArrowSpace />
        )}
        <LocationCheckbox id={region.id} label={name} selection={selection} onToggle={onToggle} />
      </Group>
      {expanded && cities.length > 0 ? (
        <SimpleGrid
          id={domId(region.id)}
          cols={{ base: 1, sm: 2, lg: 3 }}
          spacing="xs"
          verticalSpacing={6}
          pl={56}
          py={6}
        >
          {cities.map((city) => (
            <LocationCheckbox
              key={city.id}
              id={city.id}
              label={city.city ?? city.id}
              selection={selection}
              onToggle={onToggle}
            />
          ))}
        </SimpleGrid>
      ) : null}
    </li>
  );
}
