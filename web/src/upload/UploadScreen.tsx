import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type SubmitEvent, useState } from 'react';
import { keys } from '../api/keys';
import { uploads } from '../api/spinroom';
import { ErrorNote } from '../app/ErrorNote';
import { uploadAsSong } from '../crates/music';
import { SongActions } from '../crates/SongActions';
import { nameOf, useT } from '../i18n/i18n';
import { FINAL_STATUSES, uploadSong } from './uploadFile';

export function UploadScreen() {
  const t = useT();
  const client = useQueryClient();
  const [file, setFile] = useState<File>();
  const [trackName, setTrackName] = useState('');
  const [artistName, setArtistName] = useState('');
  const [progress, setProgress] = useState<number>();
  const [error, setError] = useState<unknown>();
  const mine = useQuery({
    queryKey: keys.uploads,
    queryFn: uploads.mine,
    // Poll while any upload is still being verified.
    refetchInterval: (query) => (query.state.data?.some((s) => !FINAL_STATUSES.has(s.status)) ? 2000 : false),
  });
  const submit = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!file) return;
    setError(undefined);
    setProgress(0);
    try {
      await uploadSong({ file, trackName, artistName }, setProgress);
      setProgress(1);
      void client.invalidateQueries({ queryKey: keys.uploads });
    } catch (err) {
      setError(err);
      setProgress(undefined);
    }
  };
  return (
    <div className="upload">
      <form className="card stack" onSubmit={(e) => void submit(e)} aria-labelledby="upload-title">
        <h1 id="upload-title">{t.upload}</h1>
        <label>
          {t.chooseFile}
          <input type="file" accept="audio/*" required onChange={(e) => setFile(e.target.files?.[0])} />
        </label>
        <label>
          {t.trackName}
          <input value={trackName} maxLength={200} onChange={(e) => setTrackName(e.target.value)} />
        </label>
        <label>
          {t.artistName}
          <input value={artistName} maxLength={200} onChange={(e) => setArtistName(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={!file || (progress !== undefined && progress < 1)}>
          {t.upload}
        </button>
        {progress !== undefined && (
          <progress max={1} value={progress} aria-label={t.uploading}>
            {Math.round(progress * 100)}%
          </progress>
        )}
        <ErrorNote error={error} />
      </form>
      <section aria-labelledby="uploads-title">
        <h2 id="uploads-title">{t.yourUploads}</h2>
        <ErrorNote error={mine.error} />
        <ul className="uploads">
          {mine.data?.map((song) => (
            <li key={song.songId}>
              <span>
                {song.trackName ?? song.fileName} <span className="muted">— {song.artistName ?? '?'}</span>
              </span>
              <span className={`status status-${song.status.toLowerCase()}`} data-status={song.status}>
                {nameOf(t.uploadStatuses, song.status, song.status.replace(/_/g, ' ').toLowerCase())}
              </span>
              {song.status === 'VERIFIED' && (
                // An accepted upload goes into the queue by its songId (the playlist service finds the song catalogued from it).
                <SongActions song={uploadAsSong(song)} toAdd={{ songId: song.songId }} addText={t.addToMyQueue} waitForCatalogue />
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
