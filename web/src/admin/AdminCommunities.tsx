import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Community, type CommunityInput, communities, roomKeysOf } from '../api/communities';
import { keys } from '../api/keys';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { fill, plural, useT } from '../i18n/i18n';
import { usePanelT } from './strings';
import { useDebounced } from '../search/useDebounced';
import { ConfirmDelete, PagedRows, SearchBox } from './controls';

/** Communities (global roles): search, create, edit, add rooms in bulk, delete. */
export function AdminCommunities() {
  const p = usePanelT();
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebounced(search, 300);
  const list = useQuery({
    queryKey: keys.adminCommunities(q, page),
    queryFn: () => communities.adminList(q, page),
    placeholderData: keepPreviousData,
  });
  const [draft, setDraft] = useState({ name: '', slug: '', description: '', ownerUuid: '' });
  const create = useMutation({
    mutationFn: () =>
      communities.create({
        name: draft.name,
        ...(draft.slug.trim() ? { slug: draft.slug.trim() } : {}),
        description: draft.description,
        ...(draft.ownerUuid.trim() ? { ownerUuid: draft.ownerUuid.trim() } : {}),
      }),
    onSuccess: () => {
      setDraft({ name: '', slug: '', description: '', ownerUuid: '' });
      return refreshCommunities(client);
    },
  });
  return (
    <section className="card stack" aria-labelledby="admin-communities-title">
      <h2 id="admin-communities-title">{p.panelCommunities}</h2>
      <form
        className="stack"
        aria-label={p.panelCreateCommunity}
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h3>{p.panelCreateCommunity}</h3>
        <label>
          {p.panelName}
          <input required maxLength={100} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </label>
        <label>
          {p.panelSlugOptional}
          <input maxLength={64} value={draft.slug} onChange={(e) => setDraft({ ...draft, slug: e.target.value })} />
        </label>
        <label>
          {p.panelDescription}
          <textarea maxLength={2000} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
        </label>
        <label>
          {p.panelOwnerOptional}
          <input value={draft.ownerUuid} onChange={(e) => setDraft({ ...draft, ownerUuid: e.target.value })} />
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          {p.panelCreate}
        </button>
        {create.data && (
          <p role="status">
            {fill(p.panelCreated, { name: create.data.name })}{' '}
            <a href={href({ name: 'community', slug: create.data.slug })}>{create.data.slug}</a>
          </p>
        )}
        <ErrorNote error={create.error} />
      </form>
      <SearchBox
        label={p.panelSearchCommunities}
        value={search}
        onSearch={(value) => {
          setSearch(value);
          setPage(1);
        }}
      />
      <PagedRows
        list={list}
        label={p.panelCommunities}
        empty={p.panelNoCommunities}
        page={page}
        onPage={setPage}
        row={(c) => <AdminCommunityRow key={c.uuid} community={c} />}
      />
    </section>
  );
}

const refreshCommunities = (client: ReturnType<typeof useQueryClient>) =>
  Promise.all([client.invalidateQueries({ queryKey: ['admin', 'communities'] }), client.invalidateQueries({ queryKey: keys.communities })]);

function AdminCommunityRow({ community }: { community: Community }) {
  const t = useT();
  const p = usePanelT();
  const client = useQueryClient();
  const [open, setOpen] = useState<'edit' | 'rooms' | null>(null);
  const [edit, setEdit] = useState({ name: community.name, slug: community.slug, description: community.description });
  const [roomText, setRoomText] = useState('');
  const update = useMutation({
    mutationFn: (body: CommunityInput) => communities.update(community.id, body),
    onSuccess: () => {
      setOpen(null);
      return refreshCommunities(client);
    },
  });
  const addRooms = useMutation({
    mutationFn: () => communities.addRooms(community.id, roomKeysOf(roomText)),
    onSuccess: () => {
      setRoomText('');
      return refreshCommunities(client);
    },
  });
  const remove = useMutation({ mutationFn: () => communities.remove(community.id), onSuccess: () => refreshCommunities(client) });
  const toggle = (which: 'edit' | 'rooms') => setOpen(open === which ? null : which);
  return (
    <li className="stack" aria-label={community.name}>
      <div className="row">
        <a href={href({ name: 'community', slug: community.slug })}>
          <strong>{community.name}</strong>
        </a>
        <span className="muted small">{community.slug}</span>
        {community.ownerUuid && <span className="muted small">{fill(p.panelOwner, { owner: community.ownerUuid })}</span>}
        <button
          type="button"
          aria-expanded={open === 'edit'}
          onClick={() => toggle('edit')}
          aria-label={`${p.panelEdit} ${community.name}`}
        >
          {p.panelEdit}
        </button>
        <button
          type="button"
          aria-expanded={open === 'rooms'}
          onClick={() => toggle('rooms')}
          aria-label={`${p.panelAddRooms} ${community.name}`}
        >
          {p.panelAddRooms}
        </button>
        <ConfirmDelete name={community.name} pending={remove.isPending} onDelete={() => remove.mutate()} />
      </div>
      {open === 'edit' && (
        <form
          className="stack"
          aria-label={`${p.panelEdit} ${community.name}`}
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate(edit);
          }}
        >
          <label>
            {p.panelName}
            <input required maxLength={100} value={edit.name} onChange={(e) => setEdit({ ...edit, name: e.target.value })} />
          </label>
          <label>
            {p.panelSlug}
            <input required maxLength={64} value={edit.slug} onChange={(e) => setEdit({ ...edit, slug: e.target.value })} />
          </label>
          <label>
            {p.panelDescription}
            <textarea maxLength={2000} value={edit.description} onChange={(e) => setEdit({ ...edit, description: e.target.value })} />
          </label>
          <button type="submit" disabled={update.isPending}>
            {t.save}
          </button>
        </form>
      )}
      {open === 'rooms' && (
        <form
          className="stack"
          aria-label={`${p.panelAddRooms} ${community.name}`}
          onSubmit={(e) => {
            e.preventDefault();
            addRooms.mutate();
          }}
        >
          <label>
            {p.panelRoomKeys}
            <textarea required value={roomText} onChange={(e) => setRoomText(e.target.value)} />
          </label>
          <button type="submit" disabled={addRooms.isPending || roomKeysOf(roomText).length === 0}>
            {p.panelAddRooms}
          </button>
        </form>
      )}
      {addRooms.data && <p role="status">{plural(addRooms.data.changed, p.panelRoomsAdded)}</p>}
      <ErrorNote error={update.error ?? addRooms.error ?? remove.error} />
    </li>
  );
}
