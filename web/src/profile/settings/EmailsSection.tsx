import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type EmailType, emails } from '../../api/account';
import { keys } from '../../api/keys';
import { ErrorNote } from '../../app/ErrorNote';
import { nameOf, useT } from '../../i18n/i18n';

const TYPES: EmailType[] = ['personal', 'work', 'payment', 'spotify', 'discord'];

/** The account's addresses: list, add (a code is mailed), verify with the code, resend, delete. */
export function EmailsSection() {
  const t = useT();
  const client = useQueryClient();
  const list = useQuery({ queryKey: keys.emails, queryFn: emails.list });
  const refresh = () => client.invalidateQueries({ queryKey: keys.emails });
  const [email, setEmail] = useState('');
  const [type, setType] = useState<EmailType>('personal');
  const [code, setCode] = useState('');
  const add = useMutation({
    mutationFn: () => emails.add(email, type),
    onSuccess: () => {
      setEmail('');
      return refresh();
    },
  });
  const verify = useMutation({
    mutationFn: () => emails.verify(code.trim()),
    onSuccess: () => {
      setCode('');
      return refresh();
    },
  });
  const resend = useMutation({ mutationFn: emails.resend });
  const remove = useMutation({ mutationFn: emails.remove, onSuccess: refresh });
  const pending = list.data?.some((e) => e.status === 'PENDING_VERIFICATION');
  return (
    <section className="card stack" aria-labelledby="emails-title">
      <h2 id="emails-title">{t.emails}</h2>
      <ErrorNote error={list.error} />
      <ul className="stack" aria-label={t.emails}>
        {list.data?.map((e) => (
          <li key={e.id} className="row">
            <span>
              {e.email} <span className="muted small">({nameOf(t.emailTypes, e.type)})</span>
            </span>
            <span className="muted small">{e.status === 'PENDING_VERIFICATION' ? t.pendingVerification : t.verified}</span>
            {e.status === 'PENDING_VERIFICATION' && (
              <button type="button" onClick={() => resend.mutate(e.email)} disabled={resend.isPending}>
                {t.resendCode}
              </button>
            )}
            <button type="button" aria-label={`${t.delete} ${e.email}`} onClick={() => remove.mutate(e.id)} disabled={remove.isPending}>
              {t.delete}
            </button>
          </li>
        ))}
      </ul>
      {resend.isSuccess && <p role="status">{t.codeSent}</p>}
      <ErrorNote error={resend.error ?? remove.error} />
      {pending && (
        <form
          className="stack"
          aria-label={t.verify}
          onSubmit={(e) => {
            e.preventDefault();
            verify.mutate();
          }}
        >
          <label>
            {t.verificationCode}
            <input
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              maxLength={16}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </label>
          <button type="submit" disabled={verify.isPending}>
            {t.verify}
          </button>
          <ErrorNote error={verify.error} />
        </form>
      )}
      <form
        className="stack"
        aria-label={t.addEmail}
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <label>
          {t.email}
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          {t.emailType}
          <select value={type} onChange={(e) => setType(e.target.value as EmailType)}>
            {TYPES.map((k) => (
              <option key={k} value={k}>
                {t.emailTypes[k]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={add.isPending}>
          {t.addEmail}
        </button>
        <ErrorNote error={add.error} />
      </form>
    </section>
  );
}
