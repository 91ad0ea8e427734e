// @ts-check
// The director's exports on the desk: the standings and crosstable as CSV, the printable page
// (standings and crosstable, HTML), a round's pairing sheet, and the games of a round or of the
// whole tournament as one BPGN file — what `shvedka td publish` writes, downloaded from the page
// instead of a command line. The server makes every file (in the director's language where a
// person reads it); the page only saves what it gets, a night's games asked page by page.

import { showError, showInfo } from "./notice.js";
import { $ } from "./tournament.js";
import { language, t as tr } from "./i18n.js";

/** @typedef {import("./codec.js").TournamentView} TournamentView */
/** @typedef {import("./codec.js").TdExport} TdExport */

/** The most pages of games the desk asks for one file (a page holds up to 48 KiB: 48 MiB). */
export const MOST_GAME_PAGES = 1000;

/**
 * A file name from the tournament's name and what the file holds: the characters a file system
 * refuses become `_`, spaces stay.
 * @param {string} tournament
 * @param {string} what
 * @param {string} ext
 */
export function fileName(tournament, what, ext) {
  // eslint-disable-next-line no-control-regex
  const safe = (/** @type {string} */ s) => s.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, "_").trim();
  return `${safe(tournament) || "tournament"} — ${safe(what)}.${ext}`;
}

/**
 * The games of round `round` (0: of every round), asked page by page until the server says
 * there is no next page, or `MOST_GAME_PAGES` were got (then `complete` is false).
 * @param {(what: TdExport) => ReturnType<import("./codec.js").Ask>} publish
 * @param {number} round
 * @returns {Promise<{ bpgn: string, games: number, complete: boolean } | null>}  null when a
 *   page was refused
 */
export async function allGames(publish, round) {
  let bpgn = "";
  let games = 0;
  let from = 0;
  for (let page = 0; page < MOST_GAME_PAGES; page++) {
    const r = await publish({ GamesPage: { round, from } });
    const got = r.ok?.Games;
    if (r.err || !got) return null;
    bpgn += got.bpgn;
    games += got.games;
    if (got.next === null || got.next <= from) return { bpgn, games, complete: got.next === null };
    from = got.next;
  }
  return { bpgn, games, complete: false };
}

/** Saves `text` as a file the browser downloads. */
function save(/** @type {string} */ name, /** @type {string} */ type, /** @type {string} */ text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The desk's export buttons, for the tournament on the desk. */
export class Exports {
  /**
   * @param {import("./codec.js").Ask} ask
   * @param {import("./codec.js").msg} msg
   * @param {import("./codec.js").td} td
   * @param {() => TournamentView | null} view  the tournament on the desk
   */
  constructor(ask, msg, td, view) {
    this.view = view;
    /** @type {(what: TdExport) => ReturnType<import("./codec.js").Ask>} */
    this.publish = (what) => ask(msg.td(td.publish(view()?.summary.id ?? 0, what, language())));
    /** A spreadsheet reads a CSV as UTF-8 (Cyrillic names) only after a byte-order mark. */
    const csv = "\uFEFF";
    const text = (/** @type {string} */ id, /** @type {TdExport} */ what, /** @type {string} */ file, /** @type {string} */ ext, /** @type {string} */ type, prefix = "") =>
      $(id).addEventListener("click", () => void this.text(what, file, ext, type, prefix));
    text("d-x-standings", "StandingsCsv", "ex.file-standings", "csv", "text/csv;charset=utf-8", csv);
    text("d-x-crosstable", "CrosstableCsv", "ex.file-crosstable", "csv", "text/csv;charset=utf-8", csv);
    text("d-x-html", "Html", "ex.file-page", "html", "text/html;charset=utf-8");
    $("d-x-sheet").addEventListener("click", () => {
      const round = this.round();
      if (round) void this.text({ Sheet: { round } }, "ex.file-sheet", "txt", "text/plain;charset=utf-8", "", { round });
    });
    $("d-x-round-games").addEventListener("click", () => {
      const round = this.round();
      if (round) void this.games(round);
    });
    $("d-x-games").addEventListener("click", () => void this.games(0));
  }

  /** The round chosen for the sheet and the round's games (the latest by default). */
  round() {
    return Number(/** @type {HTMLSelectElement} */ ($("d-x-round")).value) || 0;
  }

  /**
   * Shows the exports for `v`: the rounds paired so far to choose from; hidden before round 1
   * (nothing but empty tables to export).
   * @param {TournamentView} v
   */
  render(v) {
    const paired = v.summary.rounds_paired;
    $("d-exports").hidden = paired === 0;
    const select = /** @type {HTMLSelectElement} */ ($("d-x-round"));
    if (select.options.length !== paired) {
      const chosen = this.round();
      const wasLatest = chosen === 0 || chosen === select.options.length;
      select.replaceChildren(...Array.from({ length: paired }, (_, i) => {
        const o = document.createElement("option");
        o.value = String(i + 1);
        return o;
      }));
      select.value = String(wasLatest || chosen > paired ? paired : chosen);
    }
    // In the page's language now (it may have been switched since the options were made).
    for (const o of select.options) o.textContent = tr("ex.round", { round: Number(o.value) });
  }

  /**
   * Downloads one text the server makes.
   * @param {TdExport} what
   * @param {string} file  the catalogue key of the file's name
   * @param {string} ext
   * @param {string} type
   * @param {string} prefix  put before the text (a CSV's byte-order mark)
   * @param {Record<string, number>} [params]  the file name's parameters
   */
  async text(what, file, ext, type, prefix = "", params = {}) {
    const v = this.view();
    if (!v) return;
    // A refusal is said by `ask` from its code.
    const r = await this.publish(what);
    if (r.err || typeof r.ok?.Text !== "string") return;
    const name = fileName(v.summary.name, tr(file, params), ext);
    save(name, type, prefix + r.ok.Text);
    showInfo(() => tr("ex.saved", { file: name }));
  }

  /** Downloads the games of round `round` (0: every round) as one BPGN file. */
  async games(/** @type {number} */ round) {
    const v = this.view();
    if (!v) return;
    const got = await allGames(this.publish, round);
    if (!got) return;
    if (got.games === 0) {
      showError(() => tr("ex.no-games"));
      return;
    }
    if (!got.complete) {
      showError(() => tr("ex.incomplete", { count: got.games }));
      return;
    }
    const name = fileName(v.summary.name, round ? tr("ex.file-round-games", { round }) : tr("ex.file-games"), "bpgn");
    save(name, "application/x-bughouse-pgn;charset=utf-8", got.bpgn);
    showInfo(() => tr("ex.saved-games", { file: name, count: got.games }));
  }
}
