import { href } from '../app/router';
import { useT } from '../i18n/i18n';

export function KickedScreen({ reason }: { reason?: string }) {
  const t = useT();
  return (
    <section className="kicked card" role="alert">
      <h1>{t.kickedTitle}</h1>
      {reason ? <p>{reason}</p> : null}
      <a className="button" href={href({ name: 'lobby' })}>
        {t.backToLobby}
      </a>
    </section>
  );
}
