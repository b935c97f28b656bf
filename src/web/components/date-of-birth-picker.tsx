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
}

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
        popoverProps={{ withinPortal: true }}
      />
    </DatesProvider>
  );
}
