import '@mantine/dates/styles.css';
import 'dayjs/locale/fr';
import { DatePicker } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { isoDay } from '@helium/domain/format';
import classes from './RangeCalendar.module.css';

type DateRange = [string | null, string | null];

/** The two-month range calendar of the date-range picker (DateRangeControl), in a chunk of its own. */
export default function RangeCalendar({
  value,
  onChange,
  defaultDate,
}: {
  value: DateRange;
  onChange: (range: DateRange) => void;
  defaultDate: string | undefined;
}) {
  const { t, i18n } = useTranslation();
  return (
    <DatePicker
      type="range"
      allowSingleDateInRange
      numberOfColumns={2}
      classNames={{ levelsGroup: classes.levelsGroup }}
      ariaLabels={{
        previousMonth: t('common.calendar.previousMonth'),
        nextMonth: t('common.calendar.nextMonth'),
        previousYear: t('common.calendar.previousYear'),
        nextYear: t('common.calendar.nextYear'),
        previousDecade: t('common.calendar.previousDecade'),
        nextDecade: t('common.calendar.nextDecade'),
      }}
      maxDate={isoDay(new Date())}
      firstDayOfWeek={0}
      locale={i18n.language === 'fr' ? 'fr' : 'en'}
      value={value}
      onChange={(next) => onChange(next as DateRange)}
      defaultDate={defaultDate}
    />
  );
}
