import { FileInput, Stack, Text } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useRef } from 'react';
import { labReportProblem } from '../../../../domain/documents';

export interface LabReport {
  file: File | null;
  /** The checked PDF as a data URL, ready to send; null while none is accepted. */
  dataUrl: string | null;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

interface Props {
  value: LabReport;
  onChange(value: LabReport): void;
  onProblem(message: string | null): void;
  error?: string;
  disabled: boolean;
}

/** Local Lab Submission: the lab's PDF report, judged by its content, at most 500 KB. */
export function LocalLabSection({ value, onChange, onProblem, error, disabled }: Props) {
  // Only the file chosen last counts, however long an earlier one takes to read.
  const latest = useRef<File | null>(null);
  const choose = async (file: File | null) => {
    latest.current = file;
    onChange({ file, dataUrl: null });
    if (!file) {
      onProblem(null);
      return;
    }
    try {
      const problem = labReportProblem(new Uint8Array(await file.arrayBuffer()));
      if (latest.current !== file) return;
      onProblem(problem);
      if (problem) return;
      const dataUrl = await readAsDataUrl(file);
      if (latest.current === file) onChange({ file, dataUrl });
    } catch {
      if (latest.current === file) onProblem('The file could not be read. Please choose it again.');
    }
  };

  return (
    <Stack gap="xs">
      <FileInput
        label="Lab report (PDF, at most 500 KB)"
        name="lab_report_file"
        accept="application/pdf"
        // Mantine's placeholder grey is too light to read on white (WCAG AA).
        placeholder={
          <Text span size="sm" c="gray.7">
            Choose a PDF file
          </Text>
        }
        leftSection={<IconFileTypePdf size={18} aria-hidden />}
        value={value.file}
        onChange={(file) => void choose(file)}
        // Judged as soon as a file is chosen, so the verdict is announced, not only shown.
        error={error ? <span role="alert">{error}</span> : undefined}
        clearable
        clearButtonProps={{ 'aria-label': 'Remove the chosen file' }}
        disabled={disabled}
        required
      />
      <Text size="sm">Price varies by lab.</Text>
    </Stack>
  );
}
