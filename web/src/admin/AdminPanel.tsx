import { type PanelSection, panelSectionsOf } from '../api/panel';
import { href } from '../app/router';
import { useT } from '../i18n/i18n';
import { usePanelT } from './strings';
import { useSession } from '../session/session';
import { AdminCommunities } from './AdminCommunities';
import { AdminDjs } from './AdminDjs';
import { AdminEvents } from './AdminEvents';
import { AdminModeration } from './AdminModeration';
import { AdminNotifications } from './AdminNotifications';
import { AdminRooms } from './AdminRooms';
import { AdminUsersScreen } from './AdminUsersScreen';
import './admin.css';

/**
 * The admin panel (#/admin[/<section>]): the sections the token's role may
 * open (api/panel.ts), each for the roles its service allows. Anyone else
 * is told they may not; the services refuse them anyway.
 */
export function AdminPanel({ section }: { section?: PanelSection }) {
  const t = useT();
  const p = usePanelT();
  const { token } = useSession();
  const allowed = panelSectionsOf(token);
  const names: Record<PanelSection, string> = {
    rooms: p.panelRooms,
    communities: p.panelCommunities,
    events: p.panelEvents,
    moderation: p.panelModeration,
    djs: p.panelDjs,
    users: t.adminUsers,
    notifications: p.panelNotifications,
  };
  if (allowed.length === 0) {
    return (
      <section className="card stack" aria-labelledby="admin-title">
        <h1 id="admin-title">{t.adminPanel}</h1>
        <p className="error" role="alert">
          {p.panelRefused}
        </p>
      </section>
    );
  }
  const current = section ?? allowed[0]!;
  return (
    <div className="stack admin-panel">
      <h1>{t.adminPanel}</h1>
      <nav className="tabs" aria-label={t.adminPanel}>
        {allowed.map((s) => (
          <a
            key={s}
            className="button"
            href={s === 'users' ? href({ name: 'adminUsers' }) : href({ name: 'admin', section: s })}
            aria-current={s === current ? 'page' : undefined}
          >
            {names[s]}
          </a>
        ))}
      </nav>
      {!allowed.includes(current) ? (
        <p className="error" role="alert">
          {p.panelSectionRefused}
        </p>
      ) : (
        <>
          {current === 'rooms' && <AdminRooms />}
          {current === 'communities' && <AdminCommunities />}
          {current === 'events' && <AdminEvents />}
          {current === 'moderation' && <AdminModeration />}
          {current === 'djs' && <AdminDjs />}
          {current === 'notifications' && <AdminNotifications />}
          {current === 'users' && <AdminUsersScreen />}
        </>
      )}
    </div>
  );
}
