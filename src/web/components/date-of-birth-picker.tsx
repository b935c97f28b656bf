import { DateInput, DatesProvider } from '@mantine/dates';
import { usDateToIso } from '../../domain/dates';

export interface DateOfBirthProps {
  label: string;
  /** YYYY-MM-DD, or '' when empty. */
  value: string;
  onChange(value: string): void;
  /** YYYY-MM-DD: the picker offers no later date. */
  maxDate: string;
  error?: string;
  readOnly?: boolean;
  disabled?: boolean;
  name?: string;
  required?: boolean;
  id?: string;
  variant?: 'default' | 'filled';
  /**
   * Open the calendar above the field where the window has room (below where it has not): for a
   * field just above its form's button, which a calendar opened below would cover.
   */
  calendarAbove?: boolean;
}

/** The names of the calendar's arrows, which show only an arrow (Mantine names none of them). */
export const CALENDAR_ARIA_LABELS = {
  monthLevelControl: 'Choose the month',
  yearLevelControl: 'Choose the year',
  nextMonth: 'Next month',
  previousMonth: 'Previous month',
  nextYear: 'Next year',
  previousYear: 'Previous year',
  nextDecade: 'Next decade',
  previousDecade: 'Previous decade',
};

/** The date of birth field with its calendar (./date-of-birth-input loads it after the page shows). */
export function DateOfBirthPicker({
  label,
  value,
  onChange,
  maxDate,
  error,
  readOnly,
  disabled,
  name,
  required,
  id,
  variant,
  calendarAbove,
}: DateOfBirthProps) {
  // The calendar's settings live here, not in the app's providers, so pages without a date field
  // never load the date library.
  return (
    <DatesProvider settings={{ locale: 'en', firstDayOfWeek: 0 }}>
      <DateInput
        label={label}
        id={id}
        variant={variant}
        name={name}
        value={value || null}
        onChange={(next) => onChange(next ?? '')}
        valueFormat="MM/DD/YYYY"
        dateParser={(input) => usDateToIso(input)}
        placeholder="MM/DD/YYYY"
        maxDate={maxDate}
        defaultLevel="decade"
        error={error}
        readOnly={readOnly}
        disabled={disabled}
        required={required}
        clearable={!readOnly && !disabled}
        clearButtonProps={{ 'aria-label': `Clear ${label}` }}
        ariaLabels={CALENDAR_ARIA_LABELS}
        popoverProps={{ withinPortal: true, position: calendarAbove ? 'top-start' : 'bottom-start' }}
      />
    </DatesProvider>
  );
}
