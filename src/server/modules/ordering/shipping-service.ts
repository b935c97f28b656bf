import {
  earliestVialShipmentDate,
  type ShippingMethod,
  shipmentDateProblem,
  shipmentDatesBetween,
  storeEarliestShipmentDate,
} from '../../../domain/carrier-calendar';
import { earliestAfterObjection } from '../../../domain/cell-request-objection';
import { todayFor } from '../../../domain/client';
import { centsToAmount } from '../../../domain/money';
import { ACT_VIP_SHIPPING_CENTS } from '../../../domain/price-book';
import {
  type ClientVialsResponse,
  type ResolvedAddress,
  rateShipDate,
  type ShipmentDatesQuery,
  type ShipmentDatesResponse,
  type ShippingAmountResponse,
  type ShippingQuoteRequest,
  shippingAreaProblem,
  shippingCountryCode,
  shippingMessages,
  type VerifyAddressRequest,
  type VerifyAddressResponse,
} from '../../../domain/shipping';
import { prePaidVialUse, shippingCharge } from '../../../domain/vial-request-price';
import type { CarrierAddress } from '../../adapters/carrier/carrier-adapter';
import type { AppDeps } from '../../app-deps';
import { HttpError, notFound } from '../../lib/http-error';
import { findClientVialHoldings } from '../clients/client-repository';
import { priceBookInForce } from '../prices/price-book-repository';
import { shipmentBlackoutDates } from './shipment-calendar-repository';

type ShippingDeps = Pick<AppDeps, 'db' | 'clock' | 'carrier'>;

const m = shippingMessages;

function today(deps: Pick<AppDeps, 'clock'>): string {
  // The bank's calendar day (America/New_York), as every other date rule of the portal.
  return todayFor(deps.clock.now());
}

function carrierAddress(request: VerifyAddressRequest): CarrierAddress {
  return {
    streetLines: [request.Street],
    city: request.City,
    state: request.State,
    zip: request.ZipCode,
    country: shippingCountryCode(request.Country) ?? request.Country,
  };
}

function resolvedAddress(address: CarrierAddress): ResolvedAddress {
  return {
    streetLinesToken: address.streetLines,
    city: address.city,
    stateOrProvinceCode: address.state,
    countryCode: address.country,
    postalCode: address.zip,
  };
}

/** A refusal (CANNOT_SHIP) naming the field at fault, with `error` as the call's own failure sentence. */
function refused(error: string, fields: Record<string, string>): HttpError {
  return new HttpError('CANNOT_SHIP', error, fields);
}

/** get_verifyAddressWithFedex: FedEx's verdict, or its standardised address to accept or bypass. */
export async function verifyAddress(
  deps: ShippingDeps,
  request: VerifyAddressRequest,
): Promise<VerifyAddressResponse> {
  const area = shippingAreaProblem('FedEx', request.Country);
  if (area) throw refused(area, { Country: area });
  const check = await deps.carrier.validateAddress(carrierAddress(request));
  switch (check.outcome) {
    case 'verified':
      return {
        message: m.addressVerified,
        AddressFedExVerified: true,
        output: { resolvedAddresses: [resolvedAddress(check.address)] },
      };
    case 'suggested':
      return {
        message: m.addressSuggested,
        AddressFedExVerified: false,
        output: { resolvedAddresses: [resolvedAddress(check.suggestion)] },
      };
    case 'invalid':
      throw new HttpError('ADDRESS_NOT_VERIFIED', m.addressFailed);
    case 'unavailable':
      throw new HttpError('CARRIER_UNAVAILABLE', m.addressUnavailable);
  }
}

/**
 * get_FedexShipQuote and get_shipping_amount: what the order charges for shipping. FedEx: the
 * carrier's net charge with the bank's markup; ACT VIP: nothing now. `failure` is the call's own
 * sentence for a request it cannot quote.
 */
export async function shippingAmount(
  deps: ShippingDeps,
  request: ShippingQuoteRequest,
  failure: string,
): Promise<ShippingAmountResponse> {
  const method: ShippingMethod = request.shipping_method;
  const area = shippingAreaProblem(method, request.Country);
  if (area) throw refused(failure, { Country: area });
  if (method === 'ACT VIP') return amountResponse(method, ACT_VIP_SHIPPING_CENTS, null);

  const day = today(deps);
  if (request.ShipmentDate !== undefined) {
    const problem = shipmentDateProblem(request.ShipmentDate, {
      method,
      blackoutDates: await shipmentBlackoutDates(deps.db),
    });
    if (problem) throw refused(failure, { ShipmentDate: problem.message });
  }
  const shipDate = rateShipDate(request.ShipmentDate, day);
  const quote = await deps.carrier.quote({
    recipient: carrierAddress(request),
    ...(shipDate ? { shipDate } : {}),
  });
  if (quote.outcome === 'unavailable') {
    throw new HttpError('CARRIER_UNAVAILABLE', m.quoteFailed);
  }
  const { book } = await priceBookInForce(deps.db, deps.clock.now());
  const charged = shippingCharge(book, { method, carrierNetChargeCents: quote.netChargeCents });
  return amountResponse(method, charged, quote.netChargeCents);
}

function amountResponse(
  method: ShippingMethod,
  chargedCents: number,
  netChargeCents: number | null,
): ShippingAmountResponse {
  const charged = centsToAmount(chargedCents);
  return {
    shipping_method: method,
    ShippingFeeCharged: charged,
    ShippingFeeChargedCents: chargedCents,
    totalCharge: `${charged.toFixed(2)} USD`,
    totalNetCharge: netChargeCents === null ? null : centsToAmount(netChargeCents),
    priceConfirmedLater: method === 'ACT VIP',
  };
}

async function vialHoldings(deps: ShippingDeps, clientId: string) {
  const holdings = await findClientVialHoldings(deps.db, clientId);
  if (!holdings) throw notFound();
  return holdings;
}

/** get_ClientVialsService: which pre-paid vials a release uses, what the rest cost, and how soon it ships. */
export async function clientVials(
  deps: ShippingDeps,
  clientId: string,
  vials: number,
  byPhysician = false,
): Promise<ClientVialsResponse> {
  const holdings = await vialHoldings(deps, clientId);
  const use = prePaidVialUse(vials, {
    bioInsurance: holdings.bioInsuranceVials,
    longevity: holdings.longevityVials,
  });
  const { book } = await priceBookInForce(deps.db, deps.clock.now());
  const payableCents = use.payable * book.vialPrice;
  return {
    PayableAmount: centsToAmount(payableCents),
    PayableAmountCents: payableCents,
    PrePaidVials: use.coveredVials,
    BioInsuranceVialsUsed: use.bioInsurance,
    LongevityVialsUsed: use.longevity,
    PayableVials: use.payable,
    EarliestShipmentDate: earliestVialShipmentDate({
      today: today(deps),
      coveredByBioInsurance: use.coveredByBioInsurance,
      dateBankedIn: holdings.dateBankedIn,
      lastBioInsurancePurchasedDate: holdings.lastBioInsurancePurchasedDate,
      ...physicianNotBefore(deps, byPhysician),
    }),
  };
}

/** A physician's request arrives only after the client's objection window lets it ship. */
function physicianNotBefore(deps: ShippingDeps, byPhysician: boolean) {
  return byPhysician ? { notBefore: earliestAfterObjection(deps.clock.now()) } : {};
}

/**
 * The shipment dates the server accepts in a range: for a vial request from the client's earliest
 * date (sooner when pre-paid bio-insurance vials cover `NumberOfVials`), for the store from 3 days
 * ahead; FedEx on its calendar less the staff blackout dates, ACT VIP any day. A physician's vial
 * request arrives only after the client's objection window.
 */
export async function shipmentDates(
  deps: ShippingDeps,
  query: ShipmentDatesQuery,
  clientId: string | null,
  byPhysician = false,
): Promise<ShipmentDatesResponse> {
  const day = today(deps);
  let earliest = storeEarliestShipmentDate(day);
  if (query.purpose === 'vialRequest') {
    if (clientId === null) throw notFound();
    const holdings = await vialHoldings(deps, clientId);
    const use = prePaidVialUse(query.NumberOfVials ?? 0, {
      bioInsurance: holdings.bioInsuranceVials,
      longevity: holdings.longevityVials,
    });
    earliest = earliestVialShipmentDate({
      today: day,
      coveredByBioInsurance: use.coveredByBioInsurance,
      dateBankedIn: holdings.dateBankedIn,
      lastBioInsurancePurchasedDate: holdings.lastBioInsurancePurchasedDate,
      ...physicianNotBefore(deps, byPhysician),
    });
  }
  const blackoutDates = query.method === 'FedEx' ? await shipmentBlackoutDates(deps.db) : [];
  return {
    method: query.method,
    earliest,
    dates: shipmentDatesBetween(query.from, query.to, { method: query.method, earliest, blackoutDates }),
    blackoutDates: blackoutDates.filter((date) => date >= query.from && date <= query.to),
  };
}
