// A provider's SDK, loaded once from its own address.
const loading = new Map<string, Promise<void>>();

export function loadScript(src: string): Promise<void> {
  let promise = loading.get(src);
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        loading.delete(src);
        script.remove();
        reject(new PlaybackFailure('sdkUnavailable'));
      };
      document.head.append(script);
    });
    loading.set(src, promise);
  }
  return promise;
}

/** Why a provider could not play a song: the player tries the next source, and names the last reason. */
export type FailureReason = 'sdkUnavailable' | 'tokenExpired' | 'songMissing' | 'notPremium' | 'blocked' | 'notPlayed';

export class PlaybackFailure extends Error {
  constructor(readonly reason: FailureReason) {
    super(reason);
    this.name = 'PlaybackFailure';
  }
}
