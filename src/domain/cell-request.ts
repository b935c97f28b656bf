import { z } from 'zod';
import { SHIPPING_METHODS, shipmentDateMessages } from './carrier-calendar';
import { CELL_REQUEST_STATUSES, cancellationViewSchema } from './cell-request-cancellation';
import { CELL_REQUEST_PAYERS } from './cell-request-objection';
import { EMAIL_PATTERN } from './client';
import {
  acceptingSpecCardFieldNames,
  everyFieldAtOnce,
  formPaymentFields,
  shownTotalFields,
} from './form-payment';
import { formatUsd } from './money';
import { chargedOrderFields } from './payments';
import { VIALS_PER_REQUEST } from './price-book';
import { shippingViewSchema } from './shipment';
import { shippingMessages } from './shipping';
import { singleLine } from './text';
import { requiredLine, shipmentDateField, stateCodeField, usPhoneField } from './us-contact-fields';

/**
 * The Stem Cell Request Form (spec 3 sections 2-9): the order of vials shipped to a clinic, its
 * messages, its payload in the spec's names and the request as the client sees it afterwards.
 */

/**
 * The request form's annual storage note (spec 3), its fee from the price book in force (the
 * spec's $250 contradicts its other documents: the book wins). What is owed today is the overdue
 * storage the order pays, if any.
 */
export function annualStorageNote(
  fees: { cardOrCheckCents: number; achCents: number },
  owedTodayCents: number,
) {
  return `Annual storage fee ${formatUsd(fees.cardOrCheckCents)} by card or check (${formatUsd(fees.achCents)} by ACH) starting 1 year after receipt of cells; the first year is included; total owed today ${formatUsd(owedTodayCents)}.`;
}

export const cellRequestMessages = {
  consentRequired: 'Alert! Please complete the client consent before ordering vials!!.',
  paymentInfoRequired:
    'Please update your payment information before ordering vials: no credit card or bank account is on file.',
  vipNote:
    'If you choose the ACT VIP courier service, ACT will contact you directly to confirm the shipping price.',
  submitted: 'Please check your email for order confirmation',
  // One spelling for one field (issue 23): the address check's and the store's (spec 3's message
  // list), not the legacy submit's field names after "Please enter".
  country: shippingMessages.country,
  state: shippingMessages.state,
  zipCode: shippingMessages.zipCode,
  city: shippingMessages.city,
  street: shippingMessages.street,
  firstName: 'Please enter first name',
  lastName: 'Please enter last name',
  shippingEmail: 'Please enter Shipping Email',
  phone: 'Please enter Phone',
  phoneNumeric: 'Please insert only number',
  invalidEmail: 'Invalid email.',
  stateFormat: 'Please enter the two-letter state abbreviation',
  savedAddress: 'Please select shipping address',
  savedAddressEmail: 'Please enter valid Shipping Email from client information page.',
  sampleType: 'Please select sample type',
  infectiousDisease: 'Please select Infectious Disease',
  infectiousDiseaseName: 'Please enter the name of the infectious disease',
  cpp: 'Please Select',
  dose: 'Please Select Dose',
  // DESIGN.md 8.19: the spec's trailing spaces dropped.
  authorize: 'Please Check',
  paymentMethod: 'Please Choose Payment Method',
  clinicName: 'Clinic name must be at most 100 characters',
  shippingMethod: 'Please select shipping method',
  cardEmpty: 'Cannot be empty',
  billingEmail: 'Please enter billing email',
  holderFirst: 'Please enter first name',
  holderLast: 'Please enter last name',
  vialsChanged:
    'Your pre-paid vials changed while you were ordering. Please review the order summary and submit again.',
  vipToBeConfirmed: 'To be confirmed',
  /** The replacement fee from the price book the request is placed under. */
  cancellationPolicy: (replacementFeeCents: number) =>
    `Cancellation policy: please notify ACT by 2:00 PM Eastern two business days before the delivery date. A later cancellation costs a replacement fee of ${formatUsd(replacementFeeCents)} per vial, or the vials are forfeited. No cancellation is possible once the vials have shipped.`,
} as const;

const m = cellRequestMessages;

/** The new card's messages on the request form where they differ from the payment page (spec 3, section 5). */
export const cellRequestCardEmptyMessages = {
  Credit_Card_Holder_First_Name: m.holderFirst,
  Credit_Card_Holder_Last_Name: m.holderLast,
  Month_of_Expiry: m.cardEmpty,
  Year_of_Expiry: m.cardEmpty,
  Credit_Card_Biling_Email_Address: m.billingEmail,
} as const;

export const TISSUE_TYPES = ['Adipose', 'Bone Marrow', 'NB'] as const;
export type TissueType = (typeof TISSUE_TYPES)[number];
export const tissueLabels: Record<TissueType, string> = {
  Adipose: 'Adipose',
  'Bone Marrow': 'Bone Marrow',
  NB: 'NewBorn',
};

export const INFECTIOUS_DISEASE_CHOICES = ['not treated', 'treated'] as const;
/** Which address the vials go to: the client's preferred shipping address, or one typed in. */
export const SHIPPING_INFO_CHOICES = ['Preferred', 'New'] as const;

const shipmentDate = shipmentDateField(shipmentDateMessages.required);

const { min: MIN_VIALS, max: MAX_VIALS } = VIALS_PER_REQUEST;

/** send_CellRequest: what the client chose, never an amount to charge (a shown total is checked). */
export const sendCellRequestSchema = acceptingSpecCardFieldNames(
  z
    .object({
      Client_id: singleLine(z.string().trim().max(64)).optional(),
      NumberOfVials: z.number({ error: m.dose }).int(m.dose).min(MIN_VIALS, m.dose).max(MAX_VIALS, m.dose),
      CPP: z.enum(['Yes', 'No'], { error: m.cpp }),
      shipping_method: z.enum(SHIPPING_METHODS, { error: m.shippingMethod }),
      ShipmentDate: shipmentDate,
      ShippingInfo: z.enum(SHIPPING_INFO_CHOICES, { error: m.savedAddress }).default('New'),
      saveAddressForFuture: z.boolean().default(false),
      AddressFedExVerified: z.boolean().default(false),
      clinicName: singleLine(z.string().trim().max(100, m.clinicName)).default(''),
      firstName: requiredLine(m.firstName, 80),
      lastName: requiredLine(m.lastName, 80),
      ShippingEmail: requiredLine(m.shippingEmail, 200).regex(EMAIL_PATTERN, m.invalidEmail),
      phone: usPhoneField({ required: m.phone, numeric: m.phoneNumeric }),
      street: requiredLine(m.street, 200),
      city: requiredLine(m.city, 80),
      state: stateCodeField({ required: m.state, format: m.stateFormat }),
      country: requiredLine(m.country, 80),
      // Not the US ZIP rule: a shipment may go to Canada (ACT VIP), whose postal codes have letters.
      ZipCode: requiredLine(m.zipCode, 10),
      Tissue_Info: z.enum(TISSUE_TYPES, { error: m.sampleType }),
      Infectious_Disease: z.enum(INFECTIOUS_DISEASE_CHOICES, { error: m.infectiousDisease }),
      Infectious_Disease_Name: singleLine(z.string().trim().max(200)).default(''),
      authorize: z.literal(true, { error: m.authorize }),
      ...formPaymentFields,
      PaymentMethod: z.enum(['Credit Card', 'ACH Payment'], { error: m.paymentMethod }),
      PaidBy: z
        .enum(CELL_REQUEST_PAYERS)
        .default('client')
        .describe(
          "A physician's request: the client's method on file, or the physician's own (on file or new). A client's own request is 'client'.",
        ),
      ...shownTotalFields,
      // Legacy amount fields the page may send: ignored, the server computes every amount.
      CPPAmountCharged: z.number().optional(),
      ShippingFeeCharged: z.number().optional(),
      CreditCardProcessingFee: z.number().optional(),
      AmountForDoseCharged: z.number().optional(),
      PrePaidVials: z.number().optional(),
    })
    .refine((b) => b.Infectious_Disease !== 'treated' || b.Infectious_Disease_Name.length > 0, {
      message: m.infectiousDiseaseName,
      path: ['Infectious_Disease_Name'],
      ...everyFieldAtOnce,
    }),
);
export type SendCellRequest = z.infer<typeof sendCellRequestSchema>;
export type SendCellRequestInput = z.input<typeof sendCellRequestSchema>;

/** One vial request as its client (or the physician acting for them) sees it. */
export const cellRequestSchema = z.object({
  id: z.string(),
  status: z.enum(CELL_REQUEST_STATUSES),
  NumberOfVials: z.number().int(),
  PrePaidVials: z
    .number()
    .int()
    .describe('Requested vials (10 million cells each) covered by pre-paid vials; the rest were charged'),
  BioInsuranceVialsUsed: z.number().int().describe('Bio-Insurance vials taken (10 million cells each)'),
  LongevityVialsUsed: z
    .number()
    .int()
    .describe('Longevity vials taken (1 million cells each): 10 cover one requested vial'),
  CPP: z.boolean(),
  Tissue_Info: z.enum(TISSUE_TYPES),
  Infectious_Disease: z.enum(INFECTIOUS_DISEASE_CHOICES),
  Infectious_Disease_Name: z.string(),
  clinicName: z.string(),
  shipping_method: z.enum(SHIPPING_METHODS),
  ShipmentDate: z.string(),
  ShippingContactName: z.string(),
  ShippingEmail: z.string(),
  phone: z.string(),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  ZipCode: z.string(),
  country: z.string(),
  AddressFedExVerified: z.boolean(),
  vialsCents: z.number().int(),
  cppCents: z.number().int(),
  shippingCents: z.number().int(),
  overdueStorageYears: z.number().int().describe('Years of overdue annual storage paid with the order'),
  overdueStorageCents: z.number().int().describe('Their amount, before the card fee'),
  ...chargedOrderFields,
  shippingPriceToBeConfirmed: z.boolean(),
  requestedAt: z.string(),
  approvedByPractitionerAt: z.string().nullable(),
  vipPriceConfirmedAt: z.string().nullable(),
  shippedAt: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  /** A physician's request for the client: their name, and the end of the client's objection window. */
  orderedByPhysician: z.string().nullable(),
  objectionDeadline: z.string().nullable(),
  objectedAt: z.string().nullable(),
  /** On one request (not in lists): what cancelling would do now, why it cannot, or what it did. */
  cancellation: cancellationViewSchema.optional(),
  /** On one request: the carrier's scans and the clinic's confirmation. */
  shipping: shippingViewSchema.optional(),
});
export type CellRequest = z.infer<typeof cellRequestSchema>;

export const cellRequestListSchema = z.object({ requests: z.array(cellRequestSchema) });
export type CellRequestList = z.infer<typeof cellRequestListSchema>;

export const sendCellRequestResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  id: z.string(),
  TransactionId: z.string().nullable(),
  amountCharged: z.number(),
  amountChargedCents: z.number().int(),
  request: cellRequestSchema,
});
export type SendCellRequestResponse = z.infer<typeof sendCellRequestResponseSchema>;

export const cellRequestIdSchema = z.object({ id: z.uuid({ error: 'Not found' }) });
export const cellRequestListQuerySchema = z.object({
  Client_id: singleLine(z.string().trim().max(64)).optional(),
});
