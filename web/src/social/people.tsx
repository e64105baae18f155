// The people a list names, with their nickname and avatar (the user service's
// profiles, asked in batches) and a link to each profile.
import { useQuery } from '@tanstack/react-query';
import { keys } from '../api/keys';
import { profilesOf } from '../api/points';
import type { UserProfile } from '../api/types';
import { href } from '../app/router';
import { Avatar } from '../avatars/Avatar';
import { useT } from '../i18n/i18n';

/** The profiles of `uuids`, by uuid (empty until they arrive). */
export function useProfiles(uuids: string[]): Map<string, UserProfile> {
  const unique = [...new Set(uuids)].sort();
  const profiles = useQuery({
    queryKey: keys.profiles(unique),
    queryFn: () => profilesOf(unique),
    enabled: unique.length > 0,
    staleTime: 300_000,
  });
  return new Map((profiles.data ?? []).map((p) => [p.uuid, p]));
}

/** Someone's avatar and nickname, a link to their profile. */
export function PersonLink({ uuid, profile }: { uuid: string; profile: UserProfile | undefined }) {
  const t = useT();
  return (
    <a className="person-link" href={href({ name: 'profile', userUuid: uuid })}>
      <Avatar avatarId={profile?.avatarId} color={profile?.color} seed={uuid} size={36} decorative />
      <span>{profile?.nickname ?? t.someone}</span>
    </a>
  );
}
