// @ts-check
/**
 * The cataloguers' page: signing in, and the router between its views
 * (the hash names the view, never the token).
 */
import { api, clearToken, getToken, setToken } from './api.js';
import { errorBox, say, show } from './dom.js';
import { nameView } from './name-view.js';
import { nameForm } from './name-form.js';
import { harvestsView, importView, linksView, listView, mintView, statsView } from './views.js';

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** The authority of the signed-in token, as the API says it ("" for every name). */
let authority = '';

/** Shows the sign-in form, or the app when a token is kept. */
async function start() {
  byId('sign-in-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = /** @type {HTMLInputElement} */ (byId('token'));
    void signIn(input.value.trim());
  });
  byId('sign-out').addEventListener('click', signOut);
  window.addEventListener('urikit-signed-out', () => { if (!byId('nav').hidden) signOut('The token was refused (revoked?): sign in again.'); });
  window.addEventListener('hashchange', () => void route());
  if (getToken() !== null) await signIn(/** @type {string} */ (getToken()), true);
}

/**
 * Checks a token with the API (the listing of its authority) and opens the app.
 * @param {string} token
 * @param {boolean} [kept]
 */
async function signIn(token, kept = false) {
  const error = byId('sign-in-error');
  error.textContent = '';
  if (token === '') { error.textContent = 'Paste a token first.'; return; }
  setToken(token);
  try {
    const { data } = await api('GET', '/admin/names?limit=1');
    authority = String(data.prefix ?? '').replace(/:$/, '');
  } catch (e) {
    clearToken();
    error.replaceChildren(errorBox(e));
    if (kept) byId('token').focus();
    return;
  }
  /** @type {HTMLInputElement} */ (byId('token')).value = '';
  byId('sign-in').hidden = true;
  byId('nav').hidden = false;
  byId('who').textContent = authority === '' ? 'Signed in for every name' : `Signed in for ${authority}`;
  say('Signed in.');
  if (location.hash === '' || location.hash === '#') location.hash = '#/names';
  else await route();
}

/** @param {string | Event} [why] */
function signOut(why) {
  clearToken();
  byId('nav').hidden = true;
  byId('view').hidden = true;
  byId('view').replaceChildren();
  byId('sign-in').hidden = false;
  byId('sign-in-error').textContent = typeof why === 'string' ? why : '';
  history.replaceState(null, '', location.pathname);
  byId('token').focus();
  say('Signed out.');
}

/** The view the hash names. */
async function route() {
  if (getToken() === null) return;
  const hash = location.hash.slice(1);
  const q = hash.indexOf('?');
  const path = q < 0 ? hash : hash.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : hash.slice(q + 1));
  for (const a of document.querySelectorAll('#nav a')) {
    const here = path.startsWith(/** @type {string} */ (a.getAttribute('href')).slice(1));
    if (here) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  try {
    if (path.startsWith('/name/')) await nameView(decodeURIComponent(path.slice(6)));
    else if (path.startsWith('/edit/')) await nameForm(authority, decodeURIComponent(path.slice(6)));
    else if (path === '/new') await nameForm(authority);
    else if (path === '/mint') mintView(authority);
    else if (path === '/import') importView();
    else if (path === '/links') await linksView(authority, params);
    else if (path === '/stats') await statsView(authority, params);
    else if (path === '/harvests') await harvestsView();
    else await listView(authority, params);
  } catch (e) {
    show('Something went wrong', errorBox(e));
  }
}

void start();
