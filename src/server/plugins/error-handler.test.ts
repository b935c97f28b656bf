import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ErrorCode, errorCodes, errorStatus } from '../../domain/errors';
import { HttpError } from '../lib/http-error';
import { replayError } from '../lib/run-once';
import { errorHandlerPlugin } from './error-handler';

let app: FastifyInstance;
let files: string;

beforeAll(async () => {
  app = Fastify();
  errorHandlerPlugin(app);
  app.get<{ Params: { code: ErrorCode } }>('/throw/:code', async (request) => {
    throw new HttpError(request.params.code, `refused: ${request.params.code}`, { field: 'why' });
  });
  app.post('/echo/:id', async (request) => request.body);
  files = fs.mkdtempSync(path.join(os.tmpdir(), 'error-handler-'));
  fs.writeFileSync(path.join(files, 'a.txt'), 'hello');
  await app.register(fastifyStatic, { root: files, prefix: '/files/' });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  fs.rmSync(files, { recursive: true, force: true });
});

describe('the error handler', () => {
  it.each(errorCodes)('answers an HttpError of %s with its one status and code', async (code) => {
    const response = await app.inject({ method: 'GET', url: `/throw/${code}` });
    expect(response.statusCode).toBe(errorStatus[code]);
    expect(response.json()).toEqual({ error: `refused: ${code}`, code, fields: { field: 'why' } });
    expect(new HttpError(code, 'x').statusCode).toBe(errorStatus[code]);
  });

  it("answers the framework's own refusals with the code of their status", async () => {
    const post = (body: string, contentType: string) =>
      app.inject({ method: 'POST', url: '/echo/1', payload: body, headers: { 'content-type': contentType } });
    const file = (headers: Record<string, string>) =>
      app.inject({ method: 'GET', url: '/files/a.txt', headers });
    const answers = [
      await post('{not json', 'application/json'),
      await post('<a/>', 'application/xml'),
      await file({ range: 'bytes=999-1000' }),
      await file({ 'if-match': '"not-this-one"' }),
    ];
    expect(answers.map((a) => [a.statusCode, a.json().code])).toEqual([
      [400, 'VALIDATION'],
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
      [416, 'RANGE_NOT_SATISFIABLE'],
      [412, 'PRECONDITION_FAILED'],
    ]);
    expect((await file({})).body).toBe('hello');
  });
});

describe('a kept failure replayed', () => {
  const kept = (stored: object) => ({ errorJson: JSON.stringify(stored) });

  it('answers with the status of its code', () => {
    const error = replayError(
      kept({ code: 'PAYMENT_DECLINED', message: 'Declined.', fields: { card: 'x' } }),
    );
    expect([error.statusCode, error.code, error.message, error.fields]).toEqual([
      402,
      'PAYMENT_DECLINED',
      'Declined.',
      { card: 'x' },
    ]);
  });

  it('answers a row kept before each code had one status as it was first answered', () => {
    const error = replayError(kept({ status: 409, code: 'VALIDATION', message: 'Not shipped yet.' }));
    expect([error.statusCode, error.code, error.message]).toEqual([
      409,
      'NOT_ALLOWED_NOW',
      'Not shipped yet.',
    ]);
    const same = replayError(kept({ status: 402, code: 'PAYMENT_DECLINED', message: 'Declined.' }));
    expect([same.statusCode, same.code]).toEqual([402, 'PAYMENT_DECLINED']);
  });

  it('answers a code this version does not know as a submission that did not go through', () => {
    const error = replayError(kept({ status: 418, code: 'TEAPOT', message: 'Short and stout.' }));
    expect([error.statusCode, error.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
  });
});

describe('throw sites', () => {
  it('name only the code: no `new HttpError(` in the server passes a status', () => {
    const server = path.resolve(import.meta.dirname, '..');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.tsx?$/.test(entry.name)) {
          const text = fs.readFileSync(full, 'utf8');
          for (const match of text.matchAll(/new HttpError\(\s*[-+]?\d/g)) {
            offenders.push(`${path.relative(server, full)}:${text.slice(0, match.index).split('\n').length}`);
          }
        }
      }
    };
    walk(server);
    expect(offenders).toEqual([]);
  });
});
