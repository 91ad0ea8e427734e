// The explanation of a result in the reader's language (explain.js), from the server's codes:
// RULES.md E1, E6, E9, K4 (a mate inside a flag's window, after a draw the window held), K3 (lag
// credit that withdrew a flag), A2 (the arbiter's result with his words).
import test from "node:test";
import assert from "node:assert/strict";

import { setLanguage } from "./i18n.js";
import { explanationLines } from "./explain.js";

/** @type {import("./codec.js").ExplanationView} */
const drawThenMate = {
  outcome: { Win: "One" },
  rule: "E1",
  lines: [
    { at_ms: 30_410, in_window: true, what: { Flag: { seat: "BlackB" } } },
    { at_ms: 30_600, in_window: true, what: { Draw: { board: "A", rule: "E3" } } },
    { at_ms: 30_843, in_window: true, what: { Mate: { mated: "BlackA", by: "4A. Qxf7#" } } },
    { at_ms: 30_843, in_window: true, what: "Ended" },
  ],
  weighing: ["MateOverFlag", "MateOverDraw"],
  rules: ["E1", "K4", "E6", "E9"],
};

test("E9 K4: a draw then a mate in one window, in English and in Russian", () => {
  setLanguage("en");
  const en = explanationLines(drawThenMate, "en");
  assert.deepEqual(en.lines, [
    "result: team 1 wins (E1)",
    "0:30.410 the flag of black-B fell (K4) · inside the flag's grace window (K4)",
    "0:30.600 board A drew (the players agreed, E3); held in the flag's window, weighed at its close · inside the flag's grace window (K4)",
    "0:30.843 4A. Qxf7#: black-A is mated on board (M1) · inside the flag's grace window (K4)",
    "0:30.843 the match ended · inside the flag's grace window (K4)",
    "weighed: a mate on board counts, a flag in the same window does not (E6, E9)",
    "weighed: a mate on board beats a draw in the same window (E9)",
  ]);
  assert.deepEqual(en.rules, ["E1", "K4", "E6", "E9"]);
  setLanguage("ru");
  const ru = explanationLines(drawThenMate, "ru");
  assert.equal(ru.lines[0], "результат: победила команда 1 (E1)");
  assert.equal(ru.lines[1], "0:30,410 у чёрных B упал флаг (K4) · внутри окна флага (K4)");
  assert.equal(ru.lines[6], "решение: мат на доске сильнее ничьей в том же окне (E9)");
  for (const line of ru.lines) assert.doesNotMatch(line, /[a-z]{4,}/, `no English left: ${line}`);
});

test("K3 and A2: lag credit, the arbiter's result with his words, a draw, no result", () => {
  setLanguage("en");
  /** @type {import("./codec.js").ExplanationView} */
  const e = {
    outcome: "Draw",
    rule: "A2",
    lines: [
      { at_ms: 20_300, in_window: false, what: { FlagWithdrawnByCredit: { seat: "BlackA", by: "2a. Nc6", credit_ms: 550 } } },
      { at_ms: null, in_window: false, what: { Declared: { winner: null, note: "both flags", by: "(secret)" } } },
      { at_ms: 61_000, in_window: false, what: { FlagWithdrawnByArbiter: { seat: "WhiteB", by: "olga" } } },
    ],
    weighing: [],
    rules: ["A2", "K3"],
  };
  assert.deepEqual(explanationLines(e, "en").lines, [
    "result: a draw (A2)",
    "0:20.300 2a. Nc6: the lag credit of 0.550 s brought the move of black-A inside the time; the flag is withdrawn (K3)",
    "?:?? an arbiter (secret) declared the result: a draw: «both flags» (A2)",
    "1:01.000 arbiter olga gave white-B time; the flag is withdrawn (A2)",
  ]);
  const none = explanationLines({ outcome: null, rule: null, lines: [], weighing: [], rules: [] }, "en");
  assert.deepEqual(none.lines, ["the record has no result yet", "nothing ended the match in the record"]);
});
