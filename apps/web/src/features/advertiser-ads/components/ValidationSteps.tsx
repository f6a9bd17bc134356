import { Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { validationSteps } from '../utils/stepOf.ts';

/** The three validation steps as a list, the current one filled and marked for assistive technology. */
export function ValidationSteps({ validation }: { validation: number }) {
  const { t } = useTranslation();
  const { keys, current } = validationSteps(validation);
  return (
    <Group
      component="ol"
      gap={6}
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label={t('advertiserAds.steps.pending')}
    >
      {keys.map((key, index) => {
        const isCurrent = index === current;
        const color =
          key === 'declined' ? 'red' : key === 'validated' ? 'green' : key === 'pending' ? 'orange' : 'blue';
        return (
          <li key={key} aria-current={isCurrent ? 'step' : undefined}>
            <Badge
              variant={isCurrent ? 'filled' : 'outline'}
              color={isCurrent ? color : 'gray'}
              size="lg"
              radius="sm"
              title={isCurrent ? t('advertiserAds.currentStep') : undefined}
            >
              {index + 1}. {t(`advertiserAds.steps.${key}`)}
            </Badge>
          </li>
        );
      })}
    </Group>
  );
}
