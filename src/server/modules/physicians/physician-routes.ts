import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  getPhysicianClientsResponseSchema,
  getPhysicianResponseSchema,
  setActingClientRequestSchema,
  setActingClientResponseSchema,
} from '../../../domain/physician';
import type { AppDeps } from '../../app-deps';
import { notFound } from '../../lib/http-error';
import { noteShownClients } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { resolveClientAccess } from '../clients/client-access';
import { findPhysician, listPhysicianClients } from './physician-repository';

/** The physician's own routes (a physician scope): who they are, their clients, whom they act for. */
export const physicianRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, sessions }) => {
  const errors = { 401: errorBodySchema, 404: errorBodySchema };

  app.get(
    '/get_Physician',
    {
      config: { audit: null },
      schema: {
        summary: 'The signed-in physician',
        tags: ['physician'],
        response: { 200: getPhysicianResponseSchema, ...errors },
      },
    },
    async (request) => {
      const physician = await findPhysician(db, sessionOf(request, 'physician').physicianId);
      if (!physician) throw notFound();
      return {
        Id: physician.id,
        Physician_ID: physician.physicianActId,
        Name: `${physician.firstName} ${physician.lastName}`,
      };
    },
  );

  app.get(
    '/get_PhysicianClients',
    {
      config: { audit: 'read-client' },
      schema: {
        summary: "The signed-in physician's clients, with what each has paid and signed",
        tags: ['physician'],
        response: { 200: getPhysicianClientsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'physician');
      const clients = await listPhysicianClients(db, session.physicianId);
      noteShownClients(
        session,
        clients.map((c) => c.id),
      );
      return { clients };
    },
  );

  app.post(
    '/set_ActingClient',
    {
      config: { audit: 'read-client' },
      schema: {
        summary:
          'Chooses the client the physician acts for in this session; client routes called without an id are about them',
        description:
          "Only the physician's own clients: another physician's client answers the same 404 as an unknown one.",
        tags: ['physician'],
        body: setActingClientRequestSchema,
        response: { 200: setActingClientResponseSchema, 400: errorBodySchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'physician');
      const clientId = await resolveClientAccess(db, session, request.body.clientId);
      const [client] = (await listPhysicianClients(db, session.physicianId)).filter((c) => c.id === clientId);
      if (!client) throw notFound();
      await sessions.actFor(session, clientId);
      return { actingFor: { id: client.id, clientACTId: client.clientACTId, name: client.name } };
    },
  );
};
