// @ts-check
// Seats, teams and boards (RULES.md S1): who partners whom, and which way up each board is
// drawn for a viewer. Pure; tested by seats.test.mjs.

import { SEATS } from "./codec.js";
import { t } from "./i18n.js";

/** @typedef {"WhiteA" | "BlackA" | "WhiteB" | "BlackB"} Seat */
/** @typedef {"A" | "B"} BoardId */
/** @typedef {"One" | "Two"} Team */

/** @typedef {"Account" | "Guest" | "Bot"} PlayerKind  `PlayerKind` of the protocol (version 4) */

/**
 * A player's name as shown: with "(guest)" or "(bot)" when he is no account.
 * @param {string} name
 * @param {PlayerKind | null | undefined} kind
 * @returns {string}
 */
export function marked(name, kind) {
  if (kind === "Guest") return t("v.guest", { name });
  if (kind === "Bot") return t("v.bot", { name });
  return name;
}

/** The seats in the order of every four-element array of the protocol (clocks, names, ready). */
export const SEAT_ORDER = /** @type {Seat[]} */ (SEATS);

/**
 * @param {Seat} seat
 * @returns {BoardId}
 */
export function boardOf(seat) {
  return seat.endsWith("A") ? "A" : "B";
}

/** @param {Seat} seat */
export function isWhiteSeat(seat) {
  return seat.startsWith("White");
}

/**
 * The seat playing `white` (or Black) on `board`.
 * @param {BoardId} board
 * @param {boolean} white
 * @returns {Seat}
 */
export function seatAt(board, white) {
  return /** @type {Seat} */ ((white ? "White" : "Black") + board);
}

/**
 * @param {BoardId} board
 * @returns {BoardId}
 */
export function otherBoard(board) {
  return board === "A" ? "B" : "A";
}

/**
 * S1: White-A partners Black-B, Black-A partners White-B.
 * @param {Seat} seat
 * @returns {Seat}
 */
export function partnerOf(seat) {
  return seatAt(otherBoard(boardOf(seat)), !isWhiteSeat(seat));
}

/**
 * The opponent on the same board.
 * @param {Seat} seat
 * @returns {Seat}
 */
export function opponentOf(seat) {
  return seatAt(boardOf(seat), !isWhiteSeat(seat));
}

/**
 * Team One is White-A and Black-B.
 * @param {Seat} seat
 * @returns {Team}
 */
export function teamOf(seat) {
  return isWhiteSeat(seat) === (boardOf(seat) === "A") ? "One" : "Two";
}

/**
 * The index of a seat in the protocol's four-element arrays.
 * @param {Seat} seat
 */
export function seatIndex(seat) {
  return SEAT_ORDER.indexOf(seat);
}

/**
 * The one spelling of a seat in every view and in the server's texts: `white-A`.
 * @param {Seat} seat
 */
export function seatLabel(seat) {
  return t(`m.seat.${seat}`);
}

/**
 * `team 1` / `team 2`.
 * @param {Team} team
 */
export function teamLabel(team) {
  if (named) return t("m.team-named", { name: named[team === "One" ? 0 : 1] });
  return t(`m.team.${team}`);
}

/** The teams' names of the match shown when it is a tournament game (team 1 first), else null. @type {string[] | null} */
let named = null;

/**
 * Names the teams of the match shown by their tournament names (its team 1 first), or by number
 * again (`null`), so a tournament's game says «Слоны», not «команда 2», which game 2 would swap.
 * @param {string[] | null} names
 */
export function nameTeams(names) {
  named = names;
}

/**
 * Whether White is drawn at the bottom of `board`: a player sees his own board from his side
 * and his partner's board from the partner's side (the partner plays the other colour); a
 * spectator sees board A with White at the bottom and board B with Black at the bottom, as the
 * four players sit (partners side by side).
 * @param {BoardId} board
 * @param {Seat | null} viewer
 */
export function whiteAtBottom(board, viewer) {
  if (!viewer) return board === "A";
  return boardOf(viewer) === board ? isWhiteSeat(viewer) : !isWhiteSeat(viewer);
}

/**
 * The boards in the order they are shown: the viewer's own board first.
 * @param {Seat | null} viewer
 * @returns {[BoardId, BoardId]}
 */
export function boardOrder(viewer) {
  return viewer && boardOf(viewer) === "B" ? ["B", "A"] : ["A", "B"];
}
