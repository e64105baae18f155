import { useQuery } from '@tanstack/react-query';
import { keys } from '../api/keys';
import { profilesOf } from '../api/points';

/** Nicknames of these users (the user service's profiles); a uuid without a profile stays a uuid. */
export function useNicknames(uuids: Array<string | null | undefined>): (uuid: string | null | undefined) => string {
  const wanted = [...new Set(uuids.filter((u): u is string => !!u))].sort();
  const profiles = useQuery({
    queryKey: keys.profiles(wanted),
    queryFn: () => profilesOf(wanted),
    enabled: wanted.length > 0,
    staleTime: 60_000,
  });
  const names = new Map((profiles.data ?? []).map((p) => [p.uuid, p.nickname]));
  return (uuid) => (uuid ? names.get(uuid) || uuid : '');
}
