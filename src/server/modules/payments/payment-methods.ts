import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { centsToAmount } from '../../../domain/money';
import {
  maskedAccountNumber,
  maskedCardNumber,
  type PaymentInfo,
  type SetPaymentInfoRequest,
} from '../../../domain/payment-info';
import type { StorageCharges } from '../../../domain/payments';
import type { SavedMethod } from '../../adapters/payments/payment-gateway';
import type { Database } from '../../db/client';
import { findPhysician, physicianOfClient } from '../physicians/physician-repository';
import { paymentMethods } from './schema';

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;

/**
 * Whose methods: a client's (the default), or a physician's own card, which pays for the
 * physician's clients. A bare string is a client's record id.
 */
export type MethodOwner = string | { physicianId: string };

function ownedBy(owner: MethodOwner): SQL {
  return typeof owner === 'string'
    ? eq(paymentMethods.clientId, owner)
    : eq(paymentMethods.physicianId, owner.physicianId);
}

function ownerOf(row: PaymentMethodRow): MethodOwner {
  return row.clientId ?? { physicianId: row.physicianId as string };
}

function ownerColumns(owner: MethodOwner) {
  return typeof owner === 'string' ? { clientId: owner } : { physicianId: owner.physicianId };
}

/** The default card and bank account on file. */
export interface MethodsOnFile {
  card: PaymentMethodRow | null;
  ach: PaymentMethodRow | null;
}

/** The default card and bank account on file for a client, or for a physician. */
export async function findMethodsOnFile(db: Database, owner: MethodOwner): Promise<MethodsOnFile> {
  const rows = await db
    .select()
    .from(paymentMethods)
    .where(and(ownedBy(owner), eq(paymentMethods.isDefault, true)))
    .orderBy(desc(paymentMethods.createdAt));
  return {
    card: rows.find((r) => r.kind === 'card') ?? null,
    ach: rows.find((r) => r.kind === 'ach') ?? null,
  };
}

/**
 * The method on file a scheduled charge (a storage renewal, a newborn installment) takes: the kind
 * named (at the notice, at signing) when it can be charged, else the other kind. Charged with no one
 * present, a method needs both the gateway's customer and its payment reference; one without either
 * is as good as none (the client is invoiced, the installment is overdue) rather than refused by the
 * charge.
 */
export function methodToCharge(methods: MethodsOnFile, namedKind: string | null): PaymentMethodRow | null {
  const chargeable = (row: PaymentMethodRow | null) =>
    row?.gatewayCustomerRef && row.gatewayPaymentRef ? row : null;
  return namedKind === 'ach'
    ? (chargeable(methods.ach) ?? chargeable(methods.card))
    : (chargeable(methods.card) ?? chargeable(methods.ach));
}

/** `findMethodsOnFile` for many clients in one query, by client id. */
export async function clientMethodsOnFile(db: Database, clientIds: readonly string[]) {
  const found = new Map<string, MethodsOnFile>();
  if (clientIds.length === 0) return found;
  const rows = await db
    .select()
    .from(paymentMethods)
    .where(and(inArray(paymentMethods.clientId, [...new Set(clientIds)]), eq(paymentMethods.isDefault, true)))
    .orderBy(desc(paymentMethods.createdAt));
  for (const row of rows) {
    if (!row.clientId) continue;
    const methods = found.get(row.clientId) ?? { card: null, ach: null };
    if (!methods[row.kind]) methods[row.kind] = row;
    found.set(row.clientId, methods);
  }
  return found;
}

/** The gateway customer this owner already has, so new methods join the same profile. */
export async function findGatewayCustomer(
  db: Database,
  owner: MethodOwner,
  gateway: string,
): Promise<string | null> {
  const [row] = await db
    .select({ ref: paymentMethods.gatewayCustomerRef })
    .from(paymentMethods)
    .where(and(ownedBy(owner), eq(paymentMethods.gateway, gateway)))
    .orderBy(desc(paymentMethods.createdAt))
    .limit(1);
  return row?.ref ?? null;
}

/** Puts a newly saved method on file as the default of its kind; returns its row. */
export async function putMethodOnFile(
  db: Database,
  owner: MethodOwner,
  gateway: string,
  saved: SavedMethod,
  display: SetPaymentInfoRequest,
): Promise<PaymentMethodRow> {
  return db.transaction(async (tx) => {
    await tx
      .update(paymentMethods)
      .set({ isDefault: false })
      .where(and(ownedBy(owner), eq(paymentMethods.kind, saved.kind)));
    const isCard = saved.kind === 'card';
    const [row] = await tx
      .insert(paymentMethods)
      .values({
        ...ownerColumns(owner),
        kind: saved.kind,
        brand: isCard ? (saved.brand ?? display.Credit_Card_Type ?? null) : null,
        last4: saved.last4,
        expiryMonth: isCard ? (saved.expiryMonth ?? Number(display.Month_of_Expiry)) : null,
        expiryYear: isCard ? (saved.expiryYear ?? Number(display.Year_of_Expiry)) : null,
        holderFirstName: isCard ? (display.Credit_Card_Holder_First_Name ?? null) : null,
        holderLastName: isCard ? (display.Credit_Card_Holder_Last_Name ?? null) : null,
        nameOnAccount: isCard ? null : (display.Name_On_Account ?? null),
        routingNumber: isCard ? null : (display.ABA_Routing_Number ?? null),
        billingEmail: isCard ? (display.Credit_Card_Biling_Email_Address ?? null) : null,
        billingZip: isCard ? (display.Credit_Card_Billing_Zip_Code ?? null) : null,
        country: isCard ? (display.Country ?? null) : null,
        gateway,
        gatewayCustomerRef: saved.customerRef,
        gatewayPaymentRef: saved.paymentRef,
        isDefault: true,
      })
      .returning();
    if (!row) throw new Error('the payment method was not stored');
    return row;
  });
}

/** Takes a method back off file (its charge was declined) and restores the previous default. */
export async function removeMethod(db: Database, method: PaymentMethodRow) {
  await db.transaction(async (tx) => {
    await tx.delete(paymentMethods).where(eq(paymentMethods.id, method.id));
    const [previous] = await tx
      .select({ id: paymentMethods.id })
      .from(paymentMethods)
      .where(and(ownedBy(ownerOf(method)), eq(paymentMethods.kind, method.kind)))
      .orderBy(desc(paymentMethods.createdAt))
      .limit(1);
    if (previous)
      await tx.update(paymentMethods).set({ isDefault: true }).where(eq(paymentMethods.id, previous.id));
  });
}

const NOTHING = { amountCents: 0, feeCents: 0, totalCents: 0 };

/** get_PaymentInfo's answer: display data of what is on file, never more than the last 4 digits. */
export async function paymentInfoOf(
  db: Database,
  owner: MethodOwner,
  overdue: { totalCents: number; charges: StorageCharges } | null,
): Promise<PaymentInfo> {
  const { card, ach } = await findMethodsOnFile(db, owner);
  // A client's answer names their physician; a physician's own answer names the physician.
  const physician =
    typeof owner === 'string'
      ? await physicianOfClient(db, owner)
      : await findPhysician(db, owner.physicianId);
  const id = typeof owner === 'string' ? owner : owner.physicianId;
  const cardNumber = card ? maskedCardNumber(card.last4) : null;
  const month = card?.expiryMonth ? String(card.expiryMonth).padStart(2, '0') : null;
  const year = card?.expiryYear ? String(card.expiryYear) : null;
  const accountNumber = ach ? maskedAccountNumber(ach.last4) : null;
  return {
    Id: id,
    Credit_Card_Number: cardNumber,
    Credit_Card_Type: card?.brand ?? null,
    Month_of_Expiry: month,
    Year_of_Expiry: year,
    Credit_Card_Holder_First_Name: card?.holderFirstName ?? null,
    Credit_Card_Holder_Last_Name: card?.holderLastName ?? null,
    Credit_Card_Billing_Zip_Code: card?.billingZip ?? null,
    Account_Number: accountNumber,
    Name_On_Account: ach?.nameOnAccount ?? null,
    Physician_ID: physician?.physicianActId ?? null,
    Physician_First_Name: physician?.firstName ?? null,
    Physician_Last_Name: physician?.lastName ?? null,
    Credit_Card_Number__c: cardNumber,
    Credit_Card_Type__c: card?.brand ?? null,
    Month_of_Expiry__c: month,
    Year_of_Expiry__c: year,
    Credit_Card_Holder_First_Name__c: card?.holderFirstName ?? null,
    Credit_Card_Holder_Last_Name__c: card?.holderLastName ?? null,
    Credit_Card_Billing_Zip_Code__c: card?.billingZip ?? null,
    Account_Number__c: accountNumber,
    Name_on_ACH_Account__c: ach?.nameOnAccount ?? null,
    Total_Amount_Overdue: centsToAmount(overdue?.totalCents ?? 0),
    overdueCharges: overdue?.charges ?? { card: NOTHING, ach: NOTHING },
  };
}
