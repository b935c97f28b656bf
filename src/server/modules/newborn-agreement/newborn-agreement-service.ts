import { eq } from 'drizzle-orm';
import {
  type ClientAgreementResponse,
  centsToDollars,
  newbornAgreementMessages as m,
  monthlyPaymentCents,
  type NewbornAgreementFigures,
} from '../../../domain/newborn-agreement';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import { createAgreementLinkToken, readAgreementLinkToken } from '../../lib/link-tokens';
import { clientContact } from '../clients/client-directory';
import { newbornAgreements } from './schema';

export const invalidAgreementLink = () =>
  new HttpError('NOT_FOUND', m.invalidClient, { ClientId: m.invalidClient });

type AgreementRow = typeof newbornAgreements.$inferSelect;

/**
 * A new agreement for a client and the link that opens it (valid 7 days). For the staff who send
 * agreements: the figures come from them; the main contact's e-mail, if not given, is the client's.
 */
export async function createNewbornAgreementLink(
  db: Database,
  linkSecret: Buffer,
  clientId: string,
  figures: NewbornAgreementFigures & { mainContactEmail?: string },
  now: Date,
): Promise<{ agreementId: string; token: string; path: string }> {
  const client = await clientContact(db, clientId);
  if (!client) throw new HttpError('NOT_FOUND', 'Not found');
  const [row] = await db
    .insert(newbornAgreements)
    .values({
      clientId,
      ...figures,
      mainContactEmail: figures.mainContactEmail ?? client.email,
      createdAt: now,
    })
    .returning({ id: newbornAgreements.id });
  if (!row) throw new Error('agreement was not created');
  const token = createAgreementLinkToken(linkSecret, row.id, now);
  return { agreementId: row.id, token, path: `/newbornfinanceagreement/${token}` };
}

export function figuresOf(row: AgreementRow): NewbornAgreementFigures {
  return {
    mainContact: row.mainContact,
    patientId: row.patientId,
    annualBankingFeeCents: row.annualBankingFeeCents,
    bioInsuranceFeeCents: row.bioInsuranceFeeCents,
    downPaymentCents: row.downPaymentCents,
    initialProcessingFeeCents: row.initialProcessingFeeCents,
    interestRateBasisPoints: row.interestRateBasisPoints,
    installments: row.installments,
    totalFinancedCents: row.totalFinancedCents,
  };
}

/** The agreement a link opens, or 404 "Client id is not valid" (unknown, forged, altered, expired). */
export async function agreementOfLink(
  deps: Pick<AppDeps, 'db' | 'linkSecret'>,
  token: string | undefined,
  now: Date,
) {
  const id = token ? readAgreementLinkToken(deps.linkSecret, token, now) : null;
  if (!id) throw invalidAgreementLink();
  const [row] = await deps.db.select().from(newbornAgreements).where(eq(newbornAgreements.id, id)).limit(1);
  if (!row) throw invalidAgreementLink();
  return row;
}

export function agreementResponse(token: string, row: AgreementRow): ClientAgreementResponse {
  return {
    Id: token,
    Name: row.mainContact,
    Patient_ID__c: row.patientId,
    Annual_Banking_Fee_Amount__c: centsToDollars(row.annualBankingFeeCents),
    Bio_Insurance_Fee_Amount__c: centsToDollars(row.bioInsuranceFeeCents),
    Down_Payment__c: centsToDollars(row.downPaymentCents),
    Initial_Processing_Fee_Amount__c: centsToDollars(row.initialProcessingFeeCents),
    Interest_Rate__c: row.interestRateBasisPoints / 100,
    Number_Of_Installments__c: row.installments,
    Total_Amount_Financing__c: centsToDollars(row.totalFinancedCents),
    Total_Monthly_Payment_Amount__c: centsToDollars(
      monthlyPaymentCents(row.totalFinancedCents, row.interestRateBasisPoints, row.installments),
    ),
    NB_Finance_Agreement_Completed__c: row.signedAt !== null,
    depositReceipt: row.signedAt !== null && row.depositPaymentId !== null,
  };
}
