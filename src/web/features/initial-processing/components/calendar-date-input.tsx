import { DateInput, DatesProvider } from '@mantine/dates';
import { usDateToIso } from '../../../../domain/dates';
import { CALENDAR_ARIA_LABELS } from '../../../components/date-of-birth-picker';

interface Props {
  label: string;
  name: string;
  /** YYYY-MM-DD, or '' when empty. */
  value: string;
  onChange(value: string): void;
  minDate?: string;
  maxDate?: string;
  defaultLevel?: 'month' | 'decade';
  error?: string;
  disabled?: boolean;
}

/** A date typed as MM/DD/YYYY or picked from a calendar bounded by today. */
export function CalendarDateInput({
  label,
  name,
  value,
  onChange,
  minDate,
  maxDate,
  defaultLevel,
  error,
  disabled,
}: Props) {
  return (
    <DatesProvider settings={{ locale: 'en', firstDayOfWeek: 0 }}>
      <DateInput
        label={label}
        name={name}
        value={value || null}
        onChange={(next) => onChange(next ?? '')}
        valueFormat="MM/DD/YYYY"
        dateParser={(input) => usDateToIso(input)}
        placeholder="MM/DD/YYYY"
        minDate={minDate}
        maxDate={maxDate}
        defaultLevel={defaultLevel}
        error={error}
        disabled={disabled}
        required
        clearable={!disabled}
        clearButtonProps={{ 'aria-label': `Clear ${label}` }}
        ariaLabels={CALENDAR_ARIA_LABELS}
        popoverProps={{ withinPortal: true }}
      />
    </DatesProvider>
  );
}
