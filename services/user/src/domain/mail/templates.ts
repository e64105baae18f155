import type { MailMessage } from '../mail.js';

/** Text put into HTML: the address or nickname a person typed must not become markup. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p>${p}</p>`).join('\n');
  return `<!doctype html>
<html><body style="font-family: sans-serif; max-width: 32em">
<h2>${escapeHtml(title)}</h2>
${body}
<p style="color: #666">Spinroom</p>
</body></html>`;
}

export function verificationCodeMail(to: string, code: string): MailMessage {
  return {
    to,
    subject: 'Your Spinroom verification code',
    text: `Your code to verify ${to} on Spinroom is ${code}\n\nIf you did not ask for it, ignore this mail.\n`,
    html: layout('Verify your email', [
      `Your code to verify ${escapeHtml(to)} on Spinroom is <strong style="font-size: 1.4em; letter-spacing: 0.1em">${code}</strong>`,
      'If you did not ask for it, ignore this mail.',
    ]),
  };
}

export function magicLinkMail(to: string, link: string, minutes: number): MailMessage {
  return {
    to,
    subject: 'Your Spinroom sign-in link',
    text: `Sign in to Spinroom with this link (it works once, for ${minutes} minutes):\n\n${link}\n\nIf you did not ask for it, ignore this mail.\n`,
    html: layout('Sign in to Spinroom', [
      `<a href="${escapeHtml(link)}">Sign in to Spinroom</a> (the link works once, for ${minutes} minutes).`,
      'If you did not ask for it, ignore this mail.',
    ]),
  };
}

export function passwordResetMail(to: string, link: string, minutes: number): MailMessage {
  return {
    to,
    subject: 'Reset your Spinroom password',
    text: `Choose a new Spinroom password with this link (it works once, for ${minutes} minutes):\n\n${link}\n\nIf you did not ask for it, ignore this mail: your password stays as it is.\n`,
    html: layout('Reset your password', [
      `<a href="${escapeHtml(link)}">Choose a new password</a> (the link works once, for ${minutes} minutes).`,
      'If you did not ask for it, ignore this mail: your password stays as it is.',
    ]),
  };
}
