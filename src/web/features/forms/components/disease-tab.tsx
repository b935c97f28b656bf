import { Text } from '@mantine/core';
import { useState } from 'react';
import type { FormDocuments, FormSubmissionResponse } from '../../../../domain/consent-form';
import { diseaseMessages } from '../../../../domain/infectious-disease';
import { bankDate, CompletedNotice } from './completed-notice';
import { DiseaseForm } from './disease-form';
import { DocumentLink } from './document-link';
import { LabReportRejectedNotice } from './lab-report-rejected-notice';

/** The Infectious Disease Form tab: what was submitted, or the form. */
export function DiseaseTab({ documents }: { documents: FormDocuments }) {
  const [submitted, setSubmitted] = useState<FormSubmissionResponse | null>(null);
  const screening = documents.infectiousDisease;

  // The confirmation stays in place of the form while the refreshed flags arrive behind it.
  if (submitted) {
    return (
      <CompletedNotice message={diseaseMessages.submitted}>
        {/* The spec's sentence speaks of an order: what was done, said plainly after it. */}
        <Text size="sm">{diseaseMessages.submissionSaved}</Text>
        {submitted.documentId && (
          <DocumentLink documentId={submitted.documentId}>Download your submission (PDF)</DocumentLink>
        )}
      </CompletedNotice>
    );
  }
  if (screening.completed) {
    const submittedOn = bankDate(screening.submittedAt);
    return (
      <CompletedNotice message={diseaseMessages.alreadyCompleted}>
        {screening.submissionOption && <Text size="sm">Submission option: {screening.submissionOption}</Text>}
        {submittedOn && <Text size="sm">Submitted on {submittedOn}.</Text>}
        {screening.documentId && (
          <DocumentLink documentId={screening.documentId}>Download your submission (PDF)</DocumentLink>
        )}
        {screening.labReportId && (
          <DocumentLink documentId={screening.labReportId}>Download your lab report (PDF)</DocumentLink>
        )}
      </CompletedNotice>
    );
  }
  return (
    <>
      {screening.rejection && <LabReportRejectedNotice rejection={screening.rejection} />}
      <DiseaseForm variant={{ kind: 'client', onSubmitted: setSubmitted }} />
    </>
  );
}
