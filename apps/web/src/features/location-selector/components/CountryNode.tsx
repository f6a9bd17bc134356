import { Button, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TLocation } from '@helium/contracts';
import type { CountryLoad } from '../hooks/useLocationTree.ts';
import { ArrowSpace, ExpandArrow } from './ExpandArrow.tsx';
import { LocationCheckbox } from './LocationCheckbox.tsx';
import { RegionNode } from './RegionNode.tsx';

export interface CountryNodeProps {
  country: TLocation;
  /** Its regions, each with its cities (empty until loaded). */
  regions: ReadonlyArray<{ region: TLocation; cities: readonly TLocation[] }>;
  /** It has regions to show: loaded, or still to be asked for. */
  expandable: boolean;
  load: CountryLoad | undefined;
  expanded: ReadonlySet<string>;
  onExpand: (id: string) => void;
  onRetry: (id: string) => void;
  selection: ReadonlySet<string>;
  onToggle: (id: string) => void;
  domId: (id: string) => string;
}

/** A country: its arrow and box, and when expanded its regions (loading them first when they are to come). */
export function CountryNode(props: CountryNodeProps) {
  const { country, regions, load, expanded, onExpand, selection, onToggle, domId } = props;
  const { t } = useTranslation();
  const isExpanded = expanded.has(country.id);
  const name = country.country;
  return (
    <li>
      <Group gap={4} wrap="nowrap">
        {props.expandable ? (
          <ExpandArrow
            expanded={isExpanded}
            label={t(isExpanded ? 'locations.collapse' : 'locations.expand', { name })}
            controls={domId(country.id)}
            onToggle={() => onExpand(country.id)}
          />
        ) : (
          <ArrowSpace />
        )}
        <LocationCheckbox id={country.id} label={name} selection={selection} onToggle={onToggle} />
      </Group>
      {isExpanded && props.expandable ? (
        <div id={domId(country.id)}>
          {load?.loading ? (
            <Loader size="xs" ml={56} my={4} aria-label={t('common.loading')} />
          ) : load ? (
            <Group gap="xs" ml={56} my={4} role="alert">
              <Text size="sm" c="red">
                {`Error: ${load.error}`}
              </Text>
              <Button size="compact-xs" variant="light" onClick={() => props.onRetry(country.id)}>
                {t('locations.retry')}
              </Button>
            </Group>
          ) : (
            <ul style={{ listStyle: 'none', margin: 0, paddingLeft: 28 }}>
              {regions.map(({ region, cities }) => (
                <RegionNode
                  key={region.id}
                  region={region}
                  cities={cities}
                  expanded={expanded.has(region.id)}
                  onExpand={onExpand}
                  selection={selection}
                  onToggle={onToggle}
                  domId={domId}
                />
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </li>
  );
}
