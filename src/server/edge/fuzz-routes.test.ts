import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../domain/errors';
import { clients, physicians, sessions, staffAccounts } from '../db/schema';
import { randomToken, sha256Hex } from '../lib/secrets';
import { startTestApp, type TestApp } from '../testing/test-app';

/**
 * Hostile bodies at every POST route: at least 1,000 per route, generated from the route's own
 * body schema (its JSON Schema in the OpenAPI document, made from the zod contract) by a seeded
 * generator, so a failure replays. The routes are read from the built app, so a route added later
 * is fuzzed without touching this file. Rule: no 5xx, every 4xx is `{ error, code, fields? }`, and
 * the log holds none of the demo clients' personal data.
 */

const BODIES_PER_ROUTE = 1000;
const SEED = 0x5eed_2026;
const BODY_LIMIT = 64 * 1024;
// One address, as one attacker: the per-IP limits of sign-in and recovery apply (429 soon).
const FUZZ_IP = '10.9.0.1';

// The demo clients of src/server/db/seed.ts, as the log must never show them.
const PERSONAL_DATA = [
  'Jane Doe',
  'jane.doe@example.com',
  '1975-03-14',
  '03/14/1975',
  '3055550142',
  '1200 Brickell Avenue',
  '8950 SW 74th Court',
  'John Roe',
  'john.roe@example.com',
  '1968-11-02',
  '11/02/1968',
  '4075550199',
  '455 Park Avenue South',
  '160 East 56th Street',
  'Ana Lima',
  'ana.lima@example.com',
  '1982-07-09',
  '3055550177',
  '2300 Ponce de Leon Boulevard',
  'Sam Patel',
  'sam.patel@example.com',
  '1990-01-23',
  '9545550133',
  '101 East Las Olas Boulevard',
];

/** mulberry32: a small seeded PRNG, so every run sends the same bodies. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  maxLength?: number;
  format?: string;
}

/** A piece of JSON text inserted as it is (deep nesting, `__proto__` keys, duplicate keys). */
class RawJson {
  constructor(readonly text: string) {}
}

function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const CONTROL_CHARACTERS = [...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)), '\u007f'];

const CARD_NUMBERS = [
  '4111111111111111',
  '4242 4242 4242 4242',
  '5555-5555-5555-4444',
  '378282246310005',
  'John 6011 1111 1111 1117 Roe',
  'call me, card 4000-0566-5566-5556 exp 12/29',
];

function hostileString(rng: Rng): string {
  switch (rng.int(12)) {
    case 0:
      return `a${rng.pick(CONTROL_CHARACTERS)}b`;
    case 1:
      return '\u0000';
    case 2:
      return 'x'.repeat(rng.int(BODY_LIMIT + 2048));
    case 3:
      return rng.pick(CARD_NUMBERS);
    case 4:
      return rng.pick(['1', '-1', '0', '1e309', 'NaN', 'Infinity', '0x1F', ' 12 ', '99999999999999999999']);
    case 5:
      return rng.pick([
        "' OR 1=1 --",
        '"; drop table clients; --',
        '\\',
        '%00',
        '$'.concat('{7*7}'),
        '{{7*7}}',
      ]);
    case 6:
      return rng.pick(['<script>alert(1)</script>', '../../etc/passwd', 'javascript:alert(1)']);
    case 7:
      return rng.pick(['\ud800', '\udfff\ud800', '\u202egnp.exe', '\u200b', '🙂'.repeat(500), 'Ω≈ç√∫']);
    case 8:
      return rng.pick(['02/30/2020', '13/45/2020', '9999-99-99', '00/00/0000', '12/31/9999', '1/1/1']);
    case 9:
      return rng.pick([
        'data:application/pdf;base64,JVBERi0xLjQKJeLjz9MK',
        'data:image/png;base64,AAAA',
        'data:image/png;base64,!!!!',
        `data:application/pdf;base64,${'A'.repeat(rng.int(60_000))}`,
      ]);
    case 10:
      return rng.pick(PERSONAL_DATA);
    default:
      return rng.pick(['', ' ', '\t', '\n\n', 'a'.repeat(81), 'ACT10001', 'ACT10002']);
  }
}

function deepNesting(rng: Rng): RawJson {
  const depth = rng.pick([100, 1000, 10_000]);
  return rng.int(2) === 0
    ? new RawJson(`${'['.repeat(depth)}1${']'.repeat(depth)}`)
    : new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

function hostileValue(rng: Rng, schema: JsonSchema | undefined): unknown {
  switch (rng.int(10)) {
    case 0:
    case 1:
    case 2:
      return hostileString(rng);
    case 3:
      return rng.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, true, false, null]);
    case 4:
      return rng.pick([[], {}, [1, 2], { a: 1 }, [{}], [null], ['a', 'b']]);
    case 5:
      return deepNesting(rng);
    case 6:
      return new RawJson(
        rng.pick([
          '{"__proto__":{"admin":true}}',
          '{"constructor":{"prototype":{"admin":true}}}',
          '{"prototype":{"admin":true}}',
        ]),
      );
    case 7:
      // An array where an object (or anything) is expected, holding a plausible value.
      return [plausible(rng, schema, 0)];
    case 8:
      // A number as a string, a string as a number.
      return typeof plausible(rng, schema, 0) === 'number' ? '42' : 42;
    default:
      return Array.from({ length: rng.int(2000) }, () => 'x');
  }
}

function variants(schema: JsonSchema): JsonSchema[] {
  return schema.anyOf ?? schema.oneOf ?? schema.allOf ?? [schema];
}

/** A value the schema would probably accept: the base each hostile body changes a little. */
function plausible(rng: Rng, schema: JsonSchema | undefined, depth: number): unknown {
  if (!schema || depth > 6) return 'text';
  const options = variants(schema);
  const chosen = options.length > 1 ? rng.pick(options) : (options[0] as JsonSchema);
  if (chosen !== schema) return plausible(rng, chosen, depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return rng.pick(schema.enum);
  const type = Array.isArray(schema.type) ? rng.pick(schema.type) : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        value[key] = plausible(rng, property, depth + 1);
      }
      return value;
    }
    case 'array':
      return [plausible(rng, schema.items, depth + 1)];
    case 'integer':
      return rng.int(100);
    case 'number':
      return rng.int(10_000) / 100;
    case 'boolean':
      return rng.int(2) === 0;
    case 'null':
      return null;
    default:
      return rng.pick(['abc', 'Jane', '12/01/1980', 'someone@example.com', '33131', '3055550100']);
  }
}

/** One hostile body for a route whose body follows `schema`: JSON text, sometimes not even an object. */
function hostileBody(rng: Rng, schema: JsonSchema | undefined): string {
  const base = plausible(rng, schema ?? { type: 'object' }, 0);
  const body: Record<string, unknown> =
    base !== null && typeof base === 'object' && !Array.isArray(base)
      ? (base as Record<string, unknown>)
      : {};
  const keys = Object.keys(body);
  switch (rng.int(8)) {
    case 0:
      // The whole body of the wrong kind.
      return toJson(rng.pick<unknown>([[], null, 'text', 123, {}, [body], deepNesting(rng), true]));
    case 1: {
      // Every field hostile at once.
      for (const key of keys) body[key] = hostileValue(rng, schema?.properties?.[key]);
      return toJson(body);
    }
    case 2: {
      // A prototype key next to the real fields, in raw JSON (JSON.stringify would not write it).
      const inner = toJson(body).slice(1, -1);
      const poison = rng.pick(['"__proto__":{"isAdmin":true}', '"constructor":{"prototype":{"x":1}}']);
      return `{${poison}${inner ? `,${inner}` : ''}}`;
    }
    case 3: {
      // A nested field hostile (inside an object or array field).
      const key = keys.length > 0 ? rng.pick(keys) : 'field';
      const value = body[key];
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const inner = value as Record<string, unknown>;
        const innerKeys = Object.keys(inner);
        inner[innerKeys.length > 0 ? rng.pick(innerKeys) : 'x'] = hostileValue(rng, undefined);
      } else {
        body[key] = { card: { number: rng.pick(CARD_NUMBERS) }, nested: hostileValue(rng, undefined) };
      }
      return toJson(body);
    }
    case 4:
      // Unknown fields the schema does not list.
      body[rng.pick(['isAdmin', 'clientId', 'amountCents', 'role', 'Credit_Card_Number', 'cvv'])] =
        hostileValue(rng, undefined);
      return toJson(body);
    default: {
      // One field hostile: the most common case.
      const key = keys.length > 0 ? rng.pick(keys) : 'field';
      body[key] = hostileValue(rng, schema?.properties?.[key]);
      return toJson(body);
    }
  }
}

/** Every POST route of the built app, read from its route table. */
function postRoutes(t: TestApp): string[] {
  const table = t.app.printRoutes({ commonPrefix: false, method: 'POST' });
  // FUZZ_ROUTES (a pattern) fuzzes only the matching routes, to check a new route on its own.
  const only = process.env.FUZZ_ROUTES ? new RegExp(process.env.FUZZ_ROUTES) : null;
  return [...table.matchAll(/(\/\S*) \(POST\)/g)]
    .map((match) => match[1] as string)
    .filter((route) => !only || only.test(route));
}

function bodySchemaOf(t: TestApp, route: string): JsonSchema | undefined {
  const document = t.app.swagger() as {
    paths?: Record<
      string,
      { post?: { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } } }
    >;
  };
  const openApiPath = route.replace(/:(\w+)/g, '{$1}');
  return document.paths?.[openApiPath]?.post?.requestBody?.content?.['application/json']?.schema;
}

const logLines: string[] = [];
let t: TestApp;
let janeId: string;
let staffId: string;

type CookieRole = 'client' | 'staff' | 'staff_pending';

/**
 * A session made the way the session service makes one: no sign-in (and its hashing) per body.
 * A client's, or for the back office's calls the demo admin's (half for the second-factor calls).
 */
async function clientCookie(role: CookieRole = 'client'): Promise<string> {
  const token = randomToken();
  const now = t.clock.now();
  await t.db.insert(sessions).values({
    id: sha256Hex(token),
    role,
    clientId: role === 'client' ? janeId : null,
    staffId: role === 'client' ? null : staffId,
    staffLevel: role === 'staff' ? 'admin' : null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + 60 * 60_000),
  });
  return `portal_session=${token}`;
}

/** A physician session (Dr. Alvarez), for the routes of the physician scope. */
async function physicianCookie(): Promise<string> {
  const token = randomToken();
  const now = t.clock.now();
  const [alvarez] = await t.db
    .select({ id: physicians.id })
    .from(physicians)
    .where(eq(physicians.physicianActId, 'PHY20001'));
  await t.db.insert(sessions).values({
    id: sha256Hex(token),
    role: 'physician',
    physicianId: alvarez?.id as string,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + 60 * 60_000),
  });
  return `portal_session=${token}`;
}

/** Who the fuzz signs in as for a route: staff calls need a staff session to reach their bodies. */
function roleFor(route: string): CookieRole {
  if (!route.startsWith('/api/staff/')) return 'client';
  return /verify_totp|verify_recovery_code|enrol_totp|change_initial_password/.test(route)
    ? 'staff_pending'
    : 'staff';
}

beforeAll(async () => {
  t = await startTestApp(
    {
      // Sign-in and recovery hash passwords: let their limits answer 429 soon, as they would to an attacker.
      RATE_LIMIT_LOGIN_PER_IP: '5',
      RATE_LIMIT_RECOVERY_PER_IP: '5',
      RATE_LIMIT_VERIFY_PER_IP: '100000',
    },
    // At debug every request writes its line: none of them may carry personal data.
    { logStream: { write: (line: string) => void logLines.push(line) }, logLevel: 'debug' },
  );
  const [jane] = await t.db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.clientActId, 'ACT10001'));
  janeId = jane?.id as string;
  const [staff] = await t.db.select({ id: staffAccounts.id }).from(staffAccounts).limit(1);
  staffId = staff?.id as string;
});
afterAll(() => t.close());

describe('hostile bodies at every POST route', () => {
  it('finds the POST routes of the app, the payment and form routes among them', () => {
    const routes = postRoutes(t);
    expect(routes).toEqual(
      expect.arrayContaining(
        process.env.FUZZ_ROUTES
          ? [
              '/api/pay/send_StoragePlan',
              '/api/pay/get_StoragePlanQuote',
              '/api/pay/send_CP_StoreRequest',
              '/api/pay/set_Client_Agreement_service',
            ].filter((route) => new RegExp(process.env.FUZZ_ROUTES as string).test(route))
          : [
              '/api/pay/login',
              '/api/pay/set_PaymentInfo',
              '/api/pay/send_ConsentData',
              '/api/pay/send_StoragePlan',
              '/api/pay/get_StoragePlanQuote',
              '/api/pay/send_CP_StoreRequest',
              '/api/pay/set_Client_Agreement_service',
            ],
      ),
    );
  });

  it(`answers ${BODIES_PER_ROUTE} hostile bodies per route without a 5xx, each 4xx with the JSON error shape, and logs no personal data`, async () => {
    const rng = prng(SEED);
    const started = Date.now();
    const timings: string[] = [];
    const problems: string[] = [];
    // Every other body to the portal's routes comes from a physician: the physician scope's handlers
    // get hostile bodies too.
    let physician = await physicianCookie();
    let sent = 0;
    for (const route of postRoutes(t)) {
      const role = roleFor(route);
      let cookie = await clientCookie(role);
      const schema = bodySchemaOf(t, route);
      const url = route.replace(/:\w+/g, () =>
        rng.pick(['1', 'abc', '%00', '00000000-0000-4000-8000-000000000000']),
      );
      // Sign-out ends the session it is sent with: it gets its own, ended after the first body.
      const sessionCookie = /logout/.test(route) ? await clientCookie(role) : undefined;
      const routeStarted = Date.now();
      // The third party's stand-in (the sandbox tokenizer) answers in its own error shape.
      const ours = route.startsWith('/api/');
      for (let batch = 0; batch < BODIES_PER_ROUTE; batch += 20) {
        const requests = Array.from({ length: 20 }, async (_, i) => {
          const n = batch + i;
          const payload = hostileBody(rng, schema);
          const anonymous = n % 10 === 9;
          const response = await t.app.inject({
            method: 'POST',
            url,
            remoteAddress: FUZZ_IP,
            headers: {
              'content-type': 'application/json',
              'idempotency-key': `fuzz-${route.length}-${n}-${rng.int(1e9)}`,
              ...(anonymous
                ? {}
                : { cookie: sessionCookie ?? (role === 'client' && n % 2 === 1 ? physician : cookie) }),
            },
            payload,
          });
          sent += 1;
          const sample = `${route} #${n} ${response.statusCode} ${response.body.slice(0, 200)} <- ${payload.slice(0, 200)}`;
          if (response.statusCode >= 500) problems.push(sample);
          else if (response.statusCode >= 400) {
            let parsed: unknown;
            try {
              parsed = response.json();
            } catch {
              parsed = undefined;
            }
            const shaped = ours
              ? errorBodySchema.safeParse(parsed).success
              : typeof (parsed as { error?: unknown } | undefined)?.error === 'string';
            if (!shaped) problems.push(`not an error body: ${sample}`);
          }
          if (response.statusCode === 401 && !anonymous && !sessionCookie) {
            if (role === 'client' && n % 2 === 1) physician = await physicianCookie();
            else cookie = await clientCookie(role);
          }
        });
        await Promise.all(requests);
      }
      timings.push(`${route} ${Date.now() - routeStarted} ms`);
    }
    expect(sent).toBeGreaterThanOrEqual(BODIES_PER_ROUTE * postRoutes(t).length);
    expect(problems.slice(0, 10), `${problems.length} problems`).toEqual([]);

    const log = logLines.join('');
    // Every request wrote its line (so the check below read them all).
    expect(logLines.length).toBeGreaterThanOrEqual(sent);
    const leaked = PERSONAL_DATA.filter((value) => log.includes(value));
    expect(leaked).toEqual([]);
    console.info(`fuzz: ${sent} bodies in ${Date.now() - started} ms (${timings.join(', ')})`);
    // About two minutes on PostgreSQL on a quiet 2-core machine, over five on a loaded one: the
    // limit only catches a hang, never a slow machine.
  }, 1_800_000);
});
