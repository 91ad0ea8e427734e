// @ts-check
// Accounts in the page (PROTOCOL.md, Accounts): the login form's name and password are sent
// once the session is open (`Login`, or `Register` for a new account); the connection then
// serves the account's own session, whose token replaces the guest's in sessionStorage, so a
// reload resumes the account. Logging out ends that session for good and forgets its token.
// Without a password the page enters as a guest, as before.

import { msg } from "./codec.js";

/** @typedef {import("./session.js").Outcome} Outcome */
/** @typedef {(message: any) => Promise<Outcome>} Ask */

/**
 * The credentials the login form holds until the session is open.
 * @typedef {{ name: string, password: string, register: boolean }} Credentials
 */

/**
 * Logs the open session in (or registers), and has `adopt` take the account's session token.
 * @param {Ask} ask
 * @param {Credentials} c
 * @param {(token: string, name: string) => void} adopt
 * @returns {Promise<Outcome>}
 */
export async function logIn(ask, c, adopt) {
  const r = await ask(c.register ? msg.registerAccount(c.name, c.password, false) : msg.login(c.name, c.password));
  const account = r.ok?.LoggedIn;
  if (account) adopt(account.token, account.name);
  return r;
}

/**
 * Logs out: the server ends the session (its token never resumes); the page forgets it.
 * @param {Ask} ask
 * @param {() => void} forget
 * @returns {Promise<Outcome>}
 */
export async function logOut(ask, forget) {
  const r = await ask(msg.logout());
  if (r.ok) forget();
  return r;
}
