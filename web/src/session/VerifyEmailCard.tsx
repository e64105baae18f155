// After a sign-up the address waits for the code mailed to it: this card asks
// for it (spec 000: POST /users/emails/verify; resend with POST
// /users/emails/verification-email) until it is verified or put off for now,
// on every screen but a room (the stage needs the space) and settings (whose
// address list does the same). It shows the first pending address.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type SubmitEvent, useState } from 'react';
import { emails } from '../api/account';
import { keys } from '../api/keys';
import { ErrorNote } from '../app/ErrorNote';
import { useT } from '../i18n/i18n';

export function VerifyEmailCard() {
  const t = useT();
  const queryClient = useQueryClient();
  const addresses = useQuery({ queryKey: keys.emails, queryFn: emails.list });
  const [code, setCode] = useState('');
  const [later, setLater] = useState(false);
  const pending = addresses.data?.find((e) => e.status === 'PENDING_VERIFICATION');
  const verify = useMutation({
    mutationFn: () => emails.verify(code.trim()),
    onSuccess: () => {
      setCode('');
      return queryClient.invalidateQueries({ queryKey: keys.emails });
    },
  });
  const resend = useMutation({ mutationFn: (email: string) => emails.resend(email) });
  if (verify.isSuccess && !pending) {
    return (
      <p role="status" className="notice verify-email">
        {t.authEmailVerified}
      </p>
    );
  }
  if (!pending || later) return null;
  const onSubmit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    verify.mutate();
  };
  return (
    <form className="card stack verify-email" aria-label={t.authVerifyTitle} onSubmit={onSubmit}>
      <h2>{t.authVerifyTitle}</h2>
      <p>
        {t.authVerifyHint} <strong>{pending.email}</strong>
      </p>
      <div className="row">
        <label>
          {t.authVerificationCode}
          <input
            autoComplete="one-time-code"
            inputMode="numeric"
            required
            maxLength={16}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </label>
        <button type="submit" className="primary" disabled={verify.isPending}>
          {t.authVerify}
        </button>
      </div>
      <ErrorNote error={verify.error} />
      <div className="row">
        <button type="button" className="link" onClick={() => resend.mutate(pending.email)} disabled={resend.isPending}>
          {t.authResend}
        </button>
        <button type="button" className="link" onClick={() => setLater(true)}>
          {t.authLater}
        </button>
      </div>
      {resend.isSuccess && (
        <p role="status" className="notice">
          {t.authCodeResent}
        </p>
      )}
      <ErrorNote error={resend.error} />
    </form>
  );
}
