import { forbidden, isAdminRole, notFound, type CallerKind } from '@spinroom/platform/core';

/** Who calls, as the social service needs to know it. */
export interface Actor {
  userUuid: string;
  role: string;
  kind: CallerKind;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

/** Services (their own token) and admins act for anyone. */
export const actsForAnyone = (actor: Actor): boolean => actor.kind === 'service' || isAdminRole(actor.role);

/**
 * People (users and bots) befriend, follow, block and register devices; a
 * guest has no lasting identity to keep them, and a service acts for no one
 * here.
 */
export function requireMember(actor: Actor): void {
  if (actor.kind === 'guest' || actor.kind === 'service') throw forbidden();
}

/** Admins (superUser, admin). */
export function requireAdmin(actor: Actor): void {
  if (!isAdminRole(actor.role)) throw forbidden();
}

/** Services and admins. */
export function requireServiceOrAdmin(actor: Actor): void {
  if (!actsForAnyone(actor)) throw forbidden();
}

/** The user themself, admins and services. */
export function requireSelfOrPrivileged(actor: Actor, userUuid: string): void {
  if (actor.userUuid !== userUuid && !actsForAnyone(actor)) throw forbidden();
}

/** A user named in a path or body: a uuid, else what was asked for is not there. */
export function requireUserUuid(value: string, message = 'User not found'): string {
  if (!isUuid(value)) throw notFound(message);
  return value.toLowerCase();
}

export interface Page {
  skip: number;
  take: number;
}

/** Fans' and following pages are 12 long (spec 002); no page is longer than 100. */
export const DEFAULT_TAKE = 12;
export const MAX_TAKE = 100;

export function pageOf(request: { skip?: number; take?: number } | undefined): Page {
  const skip = Math.max(Math.trunc(request?.skip ?? 0), 0);
  const take = Math.trunc(request?.take ?? 0);
  return { skip, take: take <= 0 ? DEFAULT_TAKE : Math.min(take, MAX_TAKE) };
}

export interface Paged<T> {
  items: T[];
  total: number;
}
