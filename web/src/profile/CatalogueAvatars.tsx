// The points service's avatars in the profile's picker (issue 16): the ones
// the person may wear (public ones and those assigned to them: bought, awarded,
// given) join the choice; the others show locked, each saying how it is had:
// subscribers' (with a link to the shop's Subscription section), a season's
// award to its top places, the Discord activity's.
import { useQuery } from '@tanstack/react-query';
import { keys } from '../api/keys';
import { type CatalogueAvatar, points } from '../api/points';
import { Avatar } from '../avatars/Avatar';
import { href } from '../app/router';
import { CHOOSABLE_AVATARS } from '../avatars/catalogue';
import type { Strings } from '../i18n/en';
import { fill, useT } from '../i18n/i18n';

/** Why a locked avatar is locked, in words. */
export function lockReason(avatar: CatalogueAvatar, t: Strings, currentSeason?: { id: string; name: string }): string {
  if (avatar.discordOnly) return t.avatarDiscordOnly;
  if (avatar.status === 'SUBSCRIBER_ONLY') return t.avatarSubscribers;
  if (avatar.status === 'SEASON_AWARD') {
    const top = avatar.rankThreshold ?? 1;
    return avatar.seasonId && avatar.seasonId === currentSeason?.id
      ? fill(t.avatarSeasonAwardThis, { top, season: currentSeason.name })
      : fill(t.avatarSeasonAward, { top });
  }
  return t.avatarNotYours;
}

/** The catalogue split: what the person may wear, and the rest (private ones never listed). */
export function splitCatalogue(
  all: CatalogueAvatar[],
  wearable: CatalogueAvatar[],
): { mine: CatalogueAvatar[]; locked: CatalogueAvatar[] } {
  const mayWear = new Set(wearable.map((a) => a.slug));
  // The house set (the demo catalogue lists its six as PUBLIC) is offered above already.
  const house = new Set(CHOOSABLE_AVATARS.map((a) => a.id));
  return { mine: wearable.filter((a) => !house.has(a.slug)), locked: all.filter((a) => !mayWear.has(a.slug) && !house.has(a.slug)) };
}

/** Radios for the wearable ones (in the profile form's `avatar` group) and the locked ones explained. */
export function CatalogueAvatars({ chosen, color, onChoose }: { chosen: string; color: string; onChoose: (slug: string) => void }) {
  const t = useT();
  const wearable = useQuery({ queryKey: keys.wearableAvatars, queryFn: points.wearable, staleTime: 60_000 });
  const all = useQuery({ queryKey: keys.allAvatars, queryFn: points.allAvatars, staleTime: 60_000 });
  const { mine, locked } = splitCatalogue(all.data ?? [], wearable.data ?? []);
  // The current season names a season's award (asked only when one is locked: between seasons it is a 404).
  const season = useQuery({
    queryKey: keys.currentSeason,
    queryFn: points.currentSeason,
    enabled: locked.some((a) => a.status === 'SEASON_AWARD'),
    staleTime: 300_000,
    retry: false,
  });
  if (!wearable.data || !all.data) return null;
  return (
    <>
      {mine.length > 0 && (
        <fieldset className="avatars" data-testid="avatars-owned">
          <legend>{t.avatarsYours}</legend>
          {mine.map((a) => (
            <label key={a.slug} className={chosen === a.slug ? 'chosen' : undefined}>
              <input
                type="radio"
                name="avatar"
                value={a.slug}
                checked={chosen === a.slug}
                onChange={() => onChoose(a.slug)}
                className="sr-only"
              />
              <Avatar avatarId={a.slug} color={color} size={56} title={a.name} />
            </label>
          ))}
        </fieldset>
      )}
      {locked.length > 0 && (
        <section className="stack" aria-labelledby="avatars-locked-title">
          <h2 id="avatars-locked-title">{t.avatarsToEarn}</h2>
          <ul className="avatars locked" data-testid="avatars-locked">
            {locked.map((a) => (
              <li key={a.slug} data-status={a.status}>
                <Avatar avatarId={a.slug} color={color} size={48} decorative />
                <span>
                  <strong>{a.name}</strong>
                  <span className="muted small"> 🔒 {lockReason(a, t, season.data)}</span>
                  {a.status === 'SUBSCRIBER_ONLY' && !a.discordOnly && (
                    <>
                      {' '}
                      <a className="small" href={href({ name: 'shop', section: 'subscription' })}>
                        {t.subscribeToWear}
                      </a>
                    </>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
