import { TextInput } from '@mantine/core';
import { type ComponentType, useEffect, useState } from 'react';
import { isoToUsDate } from '../../domain/dates';
import type { DateOfBirthProps } from './date-of-birth-picker';

type Picker = ComponentType<DateOfBirthProps>;

let picker: Picker | null = null;
const loadPicker = () =>
  import('./date-of-birth-picker').then((module) => {
    picker = module.DateOfBirthPicker;
    return picker;
  });

/**
 * A date of birth typed as MM/DD/YYYY or picked from a calendar that stops at today.
 *
 * The calendar and its date library (DESIGN.md section 10) load once the page has shown: until
 * then, a moment on the first page that has the field, it is the same field read-only with the
 * same value, so the page's content does not wait for a calendar nobody has opened yet.
 */
export function DateOfBirthInput(props: DateOfBirthProps) {
  const [Loaded, setLoaded] = useState<Picker | null>(() => picker);
  useEffect(() => {
    if (Loaded) return;
    let live = true;
    // A task later: after the browser has painted the page.
    const timer = setTimeout(() => {
      loadPicker().then(
        (next) => {
          if (live) setLoaded(() => next);
        },
        // Not loaded (the connection dropped): the field stays as it is; the next page tries again.
        () => {},
      );
    });
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [Loaded]);

  if (Loaded) return <Loaded {...props} />;
  return (
    <TextInput
      label={props.label}
      id={props.id}
      name={props.name}
      variant={props.variant}
      required={props.required}
      disabled={props.disabled}
      error={props.error}
      value={props.value ? isoToUsDate(props.value) : ''}
      placeholder="MM/DD/YYYY"
      readOnly
    />
  );
}
