import { useEffect, useRef, useState } from 'react';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { ApiError } from '../../../lib/api-client';
import { errorText } from './admin-only';

/** The server's messages for a form's own fields, among the refusal's failing fields. */
function fieldsOf<N extends string>(names: readonly N[], error: unknown): Partial<Record<N, string>> {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(
    names.filter((name) => error.fields[name]).map((name) => [name, error.fields[name]]),
  ) as Partial<Record<N, string>>;
}

/**
 * An admin form's submission: one per press (a second click before React re-renders sends
 * nothing), the form's own check first, the server's messages for its fields put on them and the
 * first of them focused once the fields are enabled again; `failure` is any other refusal, for
 * the form to show above its fields.
 */
export function useFormSubmission<N extends string>(
  names: readonly N[],
  form: { validate(): { hasErrors: boolean }; setErrors(errors: Partial<Record<N, string>>): void },
  mutation: { isPending: boolean; error: unknown },
) {
  const formRef = useRef<HTMLFormElement>(null);
  const sending = useRef(false);
  // The fields are disabled until the answer is rendered: only then can the first invalid one take focus.
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    if (!refused || mutation.isPending) return;
    setRefused(false);
    focusFirstInvalid(formRef.current);
  }, [refused, mutation.isPending]);
  const onServer = fieldsOf(names, mutation.error);
  // The submission's key, kept across a double click or a retry; a new one after an answer.
  const key = useRef(crypto.randomUUID());
  const onError = (error: unknown) => {
    const problems = fieldsOf(names, error);
    if (Object.keys(problems).length === 0) return;
    form.setErrors(problems);
    setRefused(true);
  };
  const onSettled = () => {
    sending.current = false;
  };
  return {
    formRef,
    /** The key to send with this submission. */
    key: () => key.current,
    /**
     * The mutation's callbacks for a keyed submission: `onDone` with the answer, a refusal's field
     * messages on the fields, and a new key after any answer.
     */
    answered<A>(onDone: (answer: A) => void) {
      return {
        onSuccess: onDone,
        onError,
        onSettled: () => {
          onSettled();
          key.current = crypto.randomUUID();
        },
      };
    },
    /** True when the submission may go: not a second press, and the form's own check passed. */
    start(): boolean {
      if (sending.current) return false;
      if (form.validate().hasErrors) {
        focusFirstInvalid(formRef.current);
        return false;
      }
      sending.current = true;
      return true;
    },
    onError,
    onSettled,
    failure: Object.keys(onServer).length > 0 ? null : errorText(mutation.error),
  };
}
