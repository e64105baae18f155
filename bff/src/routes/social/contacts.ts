import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { SocialClient } from './clients.js';
import { BASE, pageOf, SkipTakeQuery, StoredContactSchema, UuidParam } from './schemas.js';
import { CONTACT_KINDS, contactJson } from './views.js';

const PATH = `${BASE}/user-book-contact`;

const Phone = z.string().min(1).max(64);
const Email = z.string().min(1).max(320);
const ContactSchema = z
  .object({
    phoneNumbers: z.array(Phone).max(50).default([]).openapi({ description: 'International form (+15551234567) matches best' }),
    emails: z.array(Email).max(50).default([]),
  })
  .openapi('BookContact');
const Contacts = z.array(ContactSchema).max(5000);
const StoredSchema = z
  .object({
    stored: z.number().int().min(0).openapi({ description: 'Phone numbers and emails newly stored' }),
    total: z.number().int().min(0).openapi({ description: 'How many the caller has stored now' }),
    skipped: z.number().int().min(0).openapi({ description: 'Phone numbers and emails that could not be read' }),
  })
  .openapi('StoredContacts');
const MatchSchema = z
  .object({
    userUuid: z.uuid(),
    kind: z.enum(['phone', 'email']).openapi({ description: 'What matched' }),
    isFriend: z.boolean(),
    pendingInvitationId: z.uuid().nullable(),
    invitedByCaller: z.boolean(),
  })
  .openapi('ContactMatch');

/**
 * User book contacts (spec 002: POST, DELETE and GET /user-book-contact; POST
 * /user-book-contact/single; GET /user-book-contact/admin/{id}; POST
 * /user-book-contact/matching-contacts-friends; GET
 * /user-book-contact/matching-contacts). Only an HMAC of each normalised
 * phone number and email is kept, under the deployment's secret (503
 * without it); matches are the users whose own email hashes the same.
 */
export function contactRoutes(deps: RouteDeps, social: SocialClient): void {
  const tags = ['contacts'];
  const matches = async (contacts: z.infer<typeof Contacts>) =>
    (await social.matchContacts({ contacts })).matches.map((match) => ({
      userUuid: match.userUuid,
      kind: CONTACT_KINDS[match.kind as keyof typeof CONTACT_KINDS] ?? 'email',
      isFriend: match.isFriend,
      pendingInvitationId: match.pendingInvitationId || null,
      invitedByCaller: match.invitedByCaller,
    }));

  route(deps, {
    method: 'post',
    path: PATH,
    summary:
      "Stores the caller's address book (kept only as HMACs of the normalised phone numbers and emails); replace: true forgets the earlier book first. Guests may not (403)",
    tags,
    status: 201,
    body: z.object({ contacts: Contacts, replace: z.boolean().default(false) }).openapi('StoreContactsRequest'),
    response: StoredSchema,
    errors: [403, 503],
    handler: async ({ body }) => social.storeContacts({ contacts: body.contacts, replace: body.replace }),
  });

  route(deps, {
    method: 'post',
    path: `${PATH}/single`,
    summary: "Adds one contact to the caller's stored address book",
    tags,
    status: 201,
    body: ContactSchema,
    response: StoredSchema,
    errors: [403, 503],
    handler: async ({ body }) => social.storeContacts({ contacts: [body], replace: false }),
  });

  route(deps, {
    method: 'delete',
    path: PATH,
    summary: "Forgets the caller's whole stored address book",
    tags,
    response: z.object({ deleted: z.number().int().min(0) }).openapi('DeletedContacts'),
    errors: [503],
    handler: async () => social.deleteContacts({}),
  });

  route(deps, {
    method: 'get',
    path: PATH,
    summary: "The caller's stored contacts, newest first (skip, take): their kind and time, as the values are not kept",
    tags,
    query: SkipTakeQuery,
    response: pageOf(StoredContactSchema, 'StoredContactPage'),
    errors: [503],
    handler: async ({ query }) => {
      const { contacts, total } = await social.listContacts({ page: query });
      return { data: contacts.map(contactJson), total, ...query };
    },
  });

  route(deps, {
    method: 'get',
    path: `${PATH}/admin/{id}`,
    summary: "Admins: a user's stored contacts (skip, take)",
    tags,
    params: UuidParam,
    query: SkipTakeQuery,
    response: pageOf(StoredContactSchema, 'StoredContactPageAsAdmin'),
    errors: [403, 503],
    handler: async ({ params, query }) => {
      const { contacts, total } = await social.listContactsAsAdmin({ userUuid: params.id, page: query });
      return { data: contacts.map(contactJson), total, ...query };
    },
  });

  route(deps, {
    method: 'post',
    path: `${PATH}/matching-contacts-friends`,
    summary:
      "The users found in the caller's stored address book and in the contacts given (not stored), each with whether they are friends already or an invitation between them is pending",
    tags,
    body: z.object({ contacts: Contacts.default([]) }).openapi('MatchContactsRequest'),
    response: z.array(MatchSchema).openapi('ContactMatchList'),
    errors: [403, 503],
    handler: async ({ body }) => matches(body.contacts),
  });

  route(deps, {
    method: 'get',
    path: `${PATH}/matching-contacts`,
    summary: "The users found in the caller's stored address book, with whether they are friends already or invited",
    tags,
    response: z.array(MatchSchema).openapi('ContactMatches'),
    errors: [403, 503],
    handler: async () => matches([]),
  });
}
