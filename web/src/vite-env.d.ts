/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The Spotify app's public client id: linking Spotify is offered when it is set. */
  readonly VITE_SPOTIFY_CLIENT_ID?: string;
  /** The Google app's public client id: linking YouTube is offered when it is set. */
  readonly VITE_YOUTUBE_CLIENT_ID?: string;
}
