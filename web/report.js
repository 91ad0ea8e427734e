// @ts-check
// `window.shvedka`: a small read-only report of the page for end-to-end tests (web/e2e/) and
// for a curious player's console. Fields:
//   link      "webtransport" | "websocket" | null (no link now)
//   connected whether the session is open on a link
//   resumed   whether the last Welcome resumed an earlier session
//   losses    how many times the link was lost
//   seat      the player's seat ("WhiteA", ...) or null
//   matchId   the followed match or null
//   phase     the match's phase ("Forming", "Running", "Ended", ...) or null
//   bfen      the position of both boards
//   moves     the SAN of every move seen, in order
//   result    { winner, reason, rule } once decided, else null
//   lastError the last refusal or problem shown, "" if none
//   premove   the queued premove or pre-drop as move text ("e2e4", "N@f3"), or null
//   sounds    the page's last sounds ("move", "capture", "check (muted)", …), oldest first
//   muted     whether the mute switch is on (remembered across reloads)
//   review    the review shown: { matchId, move, t, bfen, clocks, running }, or null
//   analysis  the review's analysis (analysis-view.js): { on, shown: { bfen, boards: [{ board,
//             evaluation ("+0.3", "#-2" …), best (SAN or null), wish }] } or null, done, count
//             (positions after the moves analysed, of all), swings: [{ k, board, mover, mark }],
//             busy, refused, sent }
// and one action: dropConnection() closes the current link abruptly, without a goodbye, so the
// page's own reconnect-and-resume logic runs.

/**
 * @typedef {object} Report
 * @property {"webtransport" | "websocket" | null} link
 * @property {boolean} connected
 * @property {boolean} resumed
 * @property {number} losses
 * @property {string | null} seat
 * @property {number | null} matchId
 * @property {string | null} phase
 * @property {string | null} bfen
 * @property {string[]} moves
 * @property {{ winner: string | null, reason: string, rule: string } | null} result
 * @property {string} lastError
 * @property {string | null} premove
 * @property {string[]} sounds
 * @property {boolean} muted
 * @property {any} [review]
 * @property {any} [analysis]
 */

/**
 * Installs `window.shvedka`.
 * @param {() => Report} read  the report now
 * @param {() => void} dropConnection
 */
export function installReport(read, dropConnection) {
  /** @type {Record<string, PropertyDescriptor>} */
  const fields = {};
  for (const key of Object.keys(read())) {
    fields[key] = { enumerable: true, get: () => /** @type {any} */ (read())[key] };
  }
  const report = Object.create(null, fields);
  report.dropConnection = dropConnection;
  Object.freeze(report);
  Object.defineProperty(window, "shvedka", { value: report, enumerable: true });
}
