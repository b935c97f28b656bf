import { Radio, Stack, Text, Textarea } from '@mantine/core';
import {
  diseaseMessages,
  WAIVER_NOTICES,
  WAIVER_TEXT,
  type WaiverNotice,
} from '../../../../domain/infectious-disease';
import { readableDescription } from '../../../components/readable-description';
import { SignaturePadField } from './signature-pad';

export interface Waiver {
  notice: WaiverNotice | '';
  signature: string | null;
  diseases: string;
}

interface Props {
  value: Waiver;
  onChange(value: Waiver): void;
  errors: Record<string, string>;
  disabled: boolean;
}

/** Waiver Submission: the waiver, the notice that applies, the confirmed signature and any diseases. */
export function WaiverSection({ value, onChange, errors, disabled }: Props) {
  const set = (patch: Partial<Waiver>) => onChange({ ...value, ...patch });
  return (
    <Stack gap="md">
      {WAIVER_TEXT.map((paragraph) => (
        <Text key={paragraph} size="sm">
          {paragraph}
        </Text>
      ))}
      <Radio.Group
        label="Waiver notice"
        name="WaiverNotice"
        value={value.notice}
        onChange={(notice) => set({ notice: notice as WaiverNotice })}
        error={errors.WaiverNotice}
        withAsterisk
      >
        <Stack gap="sm" mt="xs">
          {(Object.keys(WAIVER_NOTICES) as WaiverNotice[]).map((notice) => (
            <Radio
              key={notice}
              value={notice}
              label={WAIVER_NOTICES[notice].label}
              description={WAIVER_NOTICES[notice].text}
              styles={readableDescription}
              aria-invalid={Boolean(errors.WaiverNotice) || undefined}
              disabled={disabled}
            />
          ))}
        </Stack>
      </Radio.Group>
      <SignaturePadField
        value={value.signature}
        onChange={(signature) => set({ signature })}
        error={errors.Signature}
        confirmLabel={diseaseMessages.confirmSignature}
        unsignedMessage={diseaseMessages.signature}
        disabled={disabled}
      />
      <Textarea
        label="Infectious diseases (if any)"
        name="InfectiousDisease"
        autosize
        minRows={3}
        maxLength={2000}
        value={value.diseases}
        onChange={(e) => set({ diseases: e.currentTarget.value })}
        error={errors.InfectiousDisease}
        disabled={disabled}
      />
    </Stack>
  );
}
