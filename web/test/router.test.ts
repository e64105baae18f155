import { describe, expect, it } from 'vitest';
import { href, parseRoute, type Route } from '../src/app/router';

describe('hash routes', () => {
  it('opens the pages of mailed links (services/user/src/domain/mail/links.ts writes WEB_URL/#/<page>/<token>)', () => {
    expect(parseRoute(new URL('http://localhost:8080/#/magic-link/abc_-123').hash)).toEqual({ name: 'magicLink', token: 'abc_-123' });
    expect(parseRoute(new URL('https://spinroom.example/#/reset-password/xyz').hash)).toEqual({ name: 'resetPassword', token: 'xyz' });
    // A link without its token is only the log-in page.
    expect(parseRoute('#/magic-link')).toEqual({ name: 'login' });
    expect(parseRoute('#/reset-password/')).toEqual({ name: 'login' });
    expect(parseRoute('#/login')).toEqual({ name: 'login' });
  });
  it('writes what it reads', () => {
    const routes: Route[] = [
      { name: 'login' },
      { name: 'magicLink', token: 'abc_-123' },
      { name: 'resetPassword', token: 'a/b' },
      { name: 'room', slug: 'chill' },
      { name: 'settings' },
    ];
    for (const route of routes) expect(parseRoute(href(route))).toEqual(route);
  });
});
