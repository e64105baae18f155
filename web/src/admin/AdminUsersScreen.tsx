import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@spinroom/platform/vocabulary';
import { useState } from 'react';
import {
  type AccountStanding,
  type AdminUser,
  admin,
  BADGES,
  type Badge,
  CAPABILITIES,
  type Capability,
  GRANTABLE_ROLES,
} from '../api/account';
import { keys } from '../api/keys';
import { ErrorNote } from '../app/ErrorNote';
import { formatDate, useLocale, useT } from '../i18n/i18n';
import { useDebounced } from '../search/useDebounced';
import { SearchBox } from './controls';
import { Pager } from './Pager';

/** The users list for admins: search, pages, and per user bans, badges, roles and capabilities. */
export function AdminUsersScreen() {
  const t = useT();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebounced(search, 300);
  const users = useQuery({
    queryKey: keys.adminUsers(q, page),
    queryFn: () => admin.users(q, page),
    placeholderData: keepPreviousData,
  });
  const pages = users.data?.pageCount ?? 1;
  return (
    <section className="card stack" aria-labelledby="admin-users-title">
      <h1 id="admin-users-title">{t.adminUsers}</h1>
      <SearchBox
        label={t.searchUsers}
        value={search}
        onSearch={(value) => {
          setSearch(value);
          setPage(1);
        }}
      />
      <ErrorNote error={users.error} />
      {users.data?.data.length === 0 && <p className="muted">{t.noUsers}</p>}
      <ul className="stack" aria-label={t.adminUsers}>
        {users.data?.data.map((u) => (
          <AdminUserRow key={u.uuid} user={u} />
        ))}
      </ul>
      <Pager page={page} pages={pages} onPage={setPage} label={t.adminUsers} />
    </section>
  );
}

function AdminUserRow({ user }: { user: AdminUser }) {
  const t = useT();
  const locale = useLocale();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [standing, setStanding] = useState<AccountStanding | null>(null);
  const [until, setUntil] = useState('');
  const [badges, setBadges] = useState<Badge[]>(user.badges.filter((b): b is Badge => (BADGES as readonly string[]).includes(b)));
  const [role, setRole] = useState<Role>(GRANTABLE_ROLES[0]!);
  const roles = standing?.roles ?? user.roles;
  const capabilities = standing?.capabilities ?? user.capabilities;
  const refreshList = () => client.invalidateQueries({ queryKey: ['admin', 'users'] });
  const act = useMutation({
    mutationFn: (call: () => Promise<AccountStanding>) => call(),
    onSuccess: (next) => {
      setStanding(next);
      return refreshList();
    },
  });
  const saveBadges = useMutation({ mutationFn: () => admin.changeBadges(user.uuid, badges), onSuccess: refreshList });
  const name = user.nickname || user.email || user.uuid;
  const panelId = `admin-user-${user.uuid}`;
  return (
    <li className="stack">
      <div className="row">
        <strong>{user.nickname}</strong>
        <span className="muted small">{user.email ?? user.kind}</span>
        <span className="muted small">{roles.join(', ')}</span>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          aria-label={`${t.manage} ${name}`}
          onClick={() => setOpen(!open)}
        >
          {t.manage}
        </button>
      </div>
      {open && (
        <fieldset id={panelId} className="stack">
          <legend>{name}</legend>
          {standing && (
            <p role="status">
              {standing.banned
                ? standing.bannedUntil
                  ? `${t.bannedUntil} ${formatDate(standing.bannedUntil, 'dateTime', locale)}`
                  : t.banned
                : t.notBanned}
            </p>
          )}
          <div className="row">
            <button type="button" onClick={() => act.mutate(() => admin.ban(user.uuid))} disabled={act.isPending}>
              {t.ban}
            </button>
            <button type="button" onClick={() => act.mutate(() => admin.unban(user.uuid))} disabled={act.isPending}>
              {t.unban}
            </button>
          </div>
          <form
            className="row"
            aria-label={t.temporaryBan}
            onSubmit={(e) => {
              e.preventDefault();
              act.mutate(() => admin.temporaryBan(user.uuid, new Date(until).toISOString()));
            }}
          >
            <label>
              {t.temporaryBan}
              <input type="datetime-local" required value={until} onChange={(e) => setUntil(e.target.value)} />
            </label>
            <button type="submit" disabled={act.isPending}>
              {t.temporaryBan}
            </button>
          </form>
          <form
            className="row"
            aria-label={t.addRole}
            onSubmit={(e) => {
              e.preventDefault();
              act.mutate(() => admin.addRole(user.uuid, role));
            }}
          >
            <label>
              {t.roles}
              <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {GRANTABLE_ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" disabled={act.isPending}>
              {t.addRole}
            </button>
          </form>
          <fieldset>
            <legend>{t.capabilities}</legend>
            {CAPABILITIES.map((c: Capability) => (
              <label key={c}>
                <input
                  type="checkbox"
                  checked={capabilities.includes(c)}
                  disabled={act.isPending}
                  onChange={(e) => {
                    const on = e.target.checked;
                    act.mutate(() => admin.setCapability(user.uuid, c, on));
                  }}
                />
                {c}
              </label>
            ))}
          </fieldset>
          <ErrorNote error={act.error} />
          <form
            className="stack"
            aria-label={t.badges}
            onSubmit={(e) => {
              e.preventDefault();
              saveBadges.mutate();
            }}
          >
            <fieldset>
              <legend>{t.badges}</legend>
              {BADGES.map((b) => (
                <label key={b}>
                  <input
                    type="checkbox"
                    checked={badges.includes(b)}
                    onChange={(e) =>
                      setBadges(e.target.checked ? BADGES.filter((x) => x === b || badges.includes(x)) : badges.filter((x) => x !== b))
                    }
                  />
                  {b}
                </label>
              ))}
            </fieldset>
            <button type="submit" disabled={saveBadges.isPending}>
              {t.saveBadges}
            </button>
            <ErrorNote error={saveBadges.error} />
          </form>
        </fieldset>
      )}
    </li>
  );
}
