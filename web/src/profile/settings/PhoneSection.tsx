import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { identities, type PhoneChannel } from '../../api/account';
import { keys } from '../../api/keys';
import { ErrorNote } from '../../app/ErrorNote';
import { useT } from '../../i18n/i18n';

/** The account's phone number, proved by a code (identity verification, channel sms). */
export function PhoneSection() {
  const t = useT();
  const client = useQueryClient();
  const list = useQuery({ queryKey: keys.identities, queryFn: identities.mine });
  const refresh = () => client.invalidateQueries({ queryKey: keys.identities });
  const [phone, setPhone] = useState('');
  const [channel, setChannel] = useState<PhoneChannel>('sms');
  const [code, setCode] = useState('');
  const request = useMutation({ mutationFn: () => identities.request(phone.trim(), channel) });
  const verify = useMutation({
    mutationFn: () => identities.verify(phone.trim(), code.trim()),
    onSuccess: () => {
      setCode('');
      request.reset();
      return refresh();
    },
  });
  const remove = useMutation({ mutationFn: identities.remove, onSuccess: refresh });
  return (
    <section className="card stack" aria-labelledby="phone-title">
      <h2 id="phone-title">{t.phone}</h2>
      <ErrorNote error={list.error} />
      {list.data?.length === 0 && <p className="muted">{t.noPhone}</p>}
      <ul className="stack" aria-label={t.phone}>
        {list.data?.map((i) => (
          <li key={i.id} className="row">
            <span>{i.phone}</span>
            <span className="muted small">{t.verified}</span>
            <button type="button" aria-label={`${t.delete} ${i.phone}`} onClick={() => remove.mutate(i.id)} disabled={remove.isPending}>
              {t.delete}
            </button>
          </li>
        ))}
      </ul>
      <ErrorNote error={remove.error} />
      <form
        className="stack"
        aria-label={t.sendCode}
        onSubmit={(e) => {
          e.preventDefault();
          request.mutate();
        }}
      >
        <label>
          {t.phoneNumber}
          <input
            type="tel"
            autoComplete="tel"
            required
            placeholder="+34600000000"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
          />
        </label>
        <label>
          {t.channel}
          <select value={channel} onChange={(e) => setChannel(e.target.value as PhoneChannel)}>
            <option value="sms">SMS</option>
            <option value="whatsapp">WhatsApp</option>
          </select>
        </label>
        <button type="submit" disabled={request.isPending}>
          {t.sendCode}
        </button>
        <ErrorNote error={request.error} />
      </form>
      {request.isSuccess && (
        <form
          className="stack"
          aria-label={t.verify}
          onSubmit={(e) => {
            e.preventDefault();
            verify.mutate();
          }}
        >
          <p role="status">{t.codeSent}</p>
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
    </section>
  );
}
