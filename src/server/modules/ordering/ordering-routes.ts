import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  clientVialsRequestSchema,
  clientVialsResponseSchema,
  shipmentDatesQuerySchema,
  shipmentDatesResponseSchema,
  shippingAmountResponseSchema,
  shippingMessages,
  shippingQuoteRequestSchema,
  verifyAddressRequestSchema,
  verifyAddressResponseSchema,
} from '../../../domain/shipping';
import type { AppDeps } from '../../app-deps';
import { sessionOf } from '../../plugins/sessions';
import { resolveClientAccess } from '../clients/client-access';
import { clientVials, shipmentDates, shippingAmount, verifyAddress } from './shipping-service';

/**
 * The shipping calls of the Stem Cell Request Form, for a client or a physician acting for one:
 * address verification, the shipping quote, the client's pre-paid vials and the shipment dates.
 * None changes anything; the carrier's outages answer 503 with the spec's sentence, never a 500.
 */
/** The quote's sentence for a body it cannot quote: a method it does not know, or details missing. */
const quoteRefusal = (fields: Readonly<Record<string, string>>) =>
  'shipping_method' in fields ? shippingMessages.quoteInvalid : shippingMessages.quoteDetailsMissing;

export const orderingRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const errors = {
    400: errorBodySchema,
    401: errorBodySchema,
    404: errorBodySchema,
    422: errorBodySchema,
    503: errorBodySchema,
  };

  app.post(
    '/get_verifyAddressWithFedex',
    {
      config: { audit: null },
      schema: {
        summary: "Verifies a US shipping address with FedEx, or answers FedEx's standardized form of it",
        description:
          "AddressFedExVerified true: 'Address Successfully Verified'. False: the address in output.resolvedAddresses is FedEx's suggestion, to accept or bypass. 422 when FedEx cannot deliver to it; 503 when FedEx cannot be reached.",
        tags: ['ordering'],
        body: verifyAddressRequestSchema,
        response: { 200: verifyAddressResponseSchema, ...errors },
      },
    },
    async (request) => {
      sessionOf(request, 'client', 'physician');
      return verifyAddress(deps, request.body);
    },
  );

  /** The two names the spec gives the shipping quote; each refuses in its own words. */
  const quoteRoute = (path: string, summary: string, failed: string) =>
    app.post(
      path,
      {
        config: { audit: null, invalidSummary: quoteRefusal },
        schema: {
          summary,
          tags: ['ordering'],
          body: shippingQuoteRequestSchema,
          response: { 200: shippingAmountResponseSchema, ...errors },
        },
      },
      async (request) => {
        sessionOf(request, 'client', 'physician');
        return shippingAmount(deps, request.body, failed);
      },
    );
  quoteRoute(
    '/get_FedexShipQuote',
    "The shipping the order charges: FedEx's net charge plus the price book's mark-up, never below its minimum; ACT VIP $0 now",
    shippingMessages.quoteFailed,
  );
  quoteRoute(
    '/get_shipping_amount',
    'The shipping the order charges (the same amount as get_FedexShipQuote)',
    shippingMessages.shippingAmountFailed,
  );

  app.post(
    '/get_ClientVialsService',
    {
      config: { audit: 'read-client' },
      schema: {
        summary:
          "The client's pre-paid vials a release of NumberOfVials uses, what the other vials cost, and its earliest shipment date",
        tags: ['ordering'],
        body: clientVialsRequestSchema,
        response: { 200: clientVialsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'client', 'physician');
      const clientId = await resolveClientAccess(deps.db, session, request.body.Client_id);
      return clientVials(deps, clientId, request.body.NumberOfVials, session.role === 'physician');
    },
  );

  app.get(
    '/get_ShipmentDates',
    {
      // From a client's vial release (purpose vialRequest): on that client's trail.
      config: { audit: 'read-order' },
      schema: {
        summary: 'The shipment arrival dates the server accepts between two dates (at most 366 days)',
        description:
          'purpose vialRequest (default): from the earliest date of a release of NumberOfVials for the client (Client_id, or the client acted for). purpose store: from 3 days ahead. FedEx: Tuesday to Saturday, no holiday nor the day after one, no staff blackout date; ACT VIP: any day from the earliest.',
        tags: ['ordering'],
        querystring: shipmentDatesQuerySchema,
        response: { 200: shipmentDatesResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'client', 'physician');
      const clientId =
        request.query.purpose === 'vialRequest'
          ? await resolveClientAccess(deps.db, session, request.query.Client_id)
          : null;
      return shipmentDates(deps, request.query, clientId, session.role === 'physician');
    },
  );
};
