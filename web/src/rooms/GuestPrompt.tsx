import { useQueryClient } from '@tanstack/react-query';
import { useT } from '../i18n/i18n';
import { openSignIn } from '../session/signInFrom';

export const GUEST_PROMPT_ID = 'guest-prompt';

/** Why a guest's seat, vote and chat controls are off, and the way in that brings them back to this room. */
export function GuestPrompt() {
  const t = useT();
  const queryClient = useQueryClient();
  const go = (mode: 'signup' | 'login') => {
    queryClient.clear();
    openSignIn(mode);
  };
  return (
    <div className="guest-prompt notice" id={GUEST_PROMPT_ID}>
      <p>{t.guestInRoom}</p>
      <div className="row">
        <button type="button" className="primary" onClick={() => go('signup')}>
          {t.signUpToJoinIn}
        </button>
        <button type="button" onClick={() => go('login')}>
          {t.signIn}
        </button>
      </div>
    </div>
  );
}
