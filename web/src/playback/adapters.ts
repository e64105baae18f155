// Each provider's adapter is its own chunk, loaded when a song first plays on it.
import type { PlayableProvider, PlayerContext, ProviderPlayer } from './types';

export async function createAdapter(provider: PlayableProvider, preview: boolean, ctx: PlayerContext): Promise<ProviderPlayer> {
  if (preview || provider === 'uploadService') {
    const { MediaElementPlayer } = await import('./media');
    return new MediaElementPlayer(provider, ctx);
  }
  switch (provider) {
    case 'spotify':
      return new (await import('./spotify')).SpotifyPlayer(ctx);
    case 'apple':
      return new (await import('./apple')).ApplePlayer(ctx);
    case 'youtube':
      return new (await import('./youtube')).YouTubePlayer(ctx);
    case 'soundCloudPublic':
      return new (await import('./media')).SoundCloudPlayer(ctx);
    case 'audius':
      return new (await import('./media')).AudiusPlayer(ctx);
    case 'sevenDigital':
      return new (await import('./media')).SevenDigitalPlayer(ctx);
  }
}
