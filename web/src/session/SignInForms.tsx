// The ways to log in on the sign-in screen: a phone code (spec 002's login
// screen asks for a phone number), email and password, a mailed link; and the
// forgotten-password request. Each form shows the server's message for a
// refusal (ErrorNote: below 500, capitalised).
import { useMutation } from '@tanstack/react-query';
import { type SubmitEvent, useId, useState } from 'react';
import { auth } from '../api/spinroom';
import { ErrorNote } from '../app/ErrorNote';
import { useT } from '../i18n/i18n';
import { startSession } from './startSession';

type Channel = 'sms' | 'whatsapp';

const submitted = (run: () => void) => (e: SubmitEvent<HTMLFormElement>) => {
  e.preventDefault();
  run();
};

/** Send-code, then verify-code: the number's account signs in, or a new one signs up with it. */
export function PhoneSignIn() {
  const t = useT();
  const [phone, setPhone] = useState('');
  const [channel, setChannel] = useState<Channel>('sms');
  const [code, setCode] = useState('');
  // The number as the server wrote it (E.164) once a code went out: the code is checked against that.
  const [sentTo, setSentTo] = useState<string | null>(null);
  const hintId = useId();
  const send = useMutation({
    mutationFn: () => auth.sendPhoneCode(phone, channel),
    onSuccess: (sent) => {
      setSentTo(sent.phone);
      setCode('');
    },
  });
  const verify = useMutation({ mutationFn: (to: string) => auth.verifyPhoneCode(to, code.trim()), onSuccess: startSession });

  if (sentTo) {
    return (
      <form className="card stack" aria-label={t.authByPhone} onSubmit={submitted(() => verify.mutate(sentTo))}>
        <p role="status">
          {t.authCodeSentTo} <strong>{sentTo}</strong>
        </p>
        <label>
          {t.authCode}
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
          {t.signIn}
        </button>
        <ErrorNote error={verify.error} />
        <div className="row">
          <button type="button" className="link" onClick={() => send.mutate()} disabled={send.isPending}>
            {t.authSendAgain}
          </button>
          <button
            type="button"
            className="link"
            onClick={() => {
              setSentTo(null);
              verify.reset();
              send.reset();
            }}
          >
            {t.authOtherNumber}
          </button>
        </div>
        <ErrorNote error={send.error} />
      </form>
    );
  }
  return (
    <form className="card stack" aria-label={t.authByPhone} onSubmit={submitted(() => send.mutate())}>
      <label>
        {t.authPhoneNumber}
        <input
          type="tel"
          autoComplete="tel"
          required
          maxLength={64}
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          aria-describedby={hintId}
        />
      </label>
      <p id={hintId} className="small muted">
        {t.authPhoneHint}
      </p>
      <fieldset className="row">
        <legend>{t.authChannel}</legend>
        {(['sms', 'whatsapp'] as const).map((c) => (
          <label key={c} className="check">
            <input type="radio" name="channel" value={c} checked={channel === c} onChange={() => setChannel(c)} />
            {c === 'sms' ? t.authSms : t.authWhatsapp}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="primary" disabled={send.isPending}>
        {t.authSendCode}
      </button>
      <ErrorNote error={send.error} />
    </form>
  );
}

export function PasswordSignIn({ onForgot }: { onForgot: () => void }) {
  const t = useT();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({ mutationFn: () => auth.login({ email, password }), onSuccess: startSession });
  return (
    <form className="card stack" aria-label={t.authByPassword} onSubmit={submitted(() => login.mutate())}>
      <label>
        {t.email}
        <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        {t.password}
        <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={login.isPending}>
        {t.signIn}
      </button>
      <ErrorNote error={login.error} />
      <button type="button" className="link" onClick={onForgot}>
        {t.authForgot}
      </button>
    </form>
  );
}

/** One email field and a button that mails a link (magic link or password reset); the answer never says whether the address has an account. */
function MailALink({
  label,
  action,
  sent,
  send,
}: {
  label: string;
  action: string;
  sent: string;
  send: (email: string) => Promise<unknown>;
}) {
  const t = useT();
  const [email, setEmail] = useState('');
  const mail = useMutation({ mutationFn: () => send(email) });
  return (
    <form className="card stack" aria-label={label} onSubmit={submitted(() => mail.mutate())}>
      <label>
        {t.email}
        <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={mail.isPending}>
        {action}
      </button>
      {mail.isSuccess && (
        <p role="status" className="notice">
          {sent}
        </p>
      )}
      <ErrorNote error={mail.error} />
    </form>
  );
}

export function MagicLinkRequest() {
  const t = useT();
  return <MailALink label={t.authByLink} action={t.authSendLink} sent={t.authLinkSent} send={auth.requestMagicLink} />;
}

export function ForgotPassword({ onBack }: { onBack: () => void }) {
  const t = useT();
  return (
    <>
      <h2>{t.authForgotTitle}</h2>
      <MailALink label={t.authForgotTitle} action={t.authSendResetLink} sent={t.authResetSent} send={auth.forgotPassword} />
      <button type="button" className="link" onClick={onBack}>
        {t.authBackToLogIn}
      </button>
    </>
  );
}
