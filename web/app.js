// The shvedka web client over the WebSocket transport (/ws, JSON frames): lobby, seats, both
// boards with reserves and ticking clocks, moves typed in SAN or long notation, draw, resign.
// It resumes its session after a lost connection. (Drag-and-drop, the removal picker,
// WebTransport and the arbiter panel come with the rest of issue 9.)
import { frame, msg, decode, result, SEATS } from "./codec.js";
import { readBfen, reserveOf, formatClock } from "./board.js";

const $ = (id) => document.getElementById(id);
const GLYPH = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
let socket, token = null, lastSeq = null, name = "", nextReq = 1, state = null, clocksAt = 0;
const pending = new Map();

function log(text, error = false) {
  const line = document.createElement("div");
  line.textContent = text;
  if (error) line.className = "error";
  $("log").prepend(line);
}

function request(m) {
  const req = nextReq++;
  socket.send(frame(req, m));
  return new Promise((resolve) => pending.set(req, resolve));
}

async function ask(m) {
  const r = result(await request(m));
  if (r.err) log(`refused: ${r.err.message}`, true);
  return r;
}

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => {
    const resume = token ? msg.resume(token, lastSeq) : null;
    socket.send(frame(0, msg.hello(name, resume)));
  };
  socket.onmessage = (e) => onMessage(decode(e.data));
  socket.onclose = () => {
    $("link").textContent = "connection lost — reconnecting…";
    $("link").className = "lost";
    if (token) setTimeout(connect, 1000);
  };
}

function onMessage({ kind, body }) {
  switch (kind) {
    case "Welcome":
      token = body.token;
      $("link").textContent = body.resumed ? "reconnected: session resumed" : "connected";
      $("link").className = "";
      $("login").hidden = true;
      if (!state) showLobby();
      break;
    case "Refused":
      log(`refused: ${body.reason}`, true);
      token = null;
      break;
    case "Reply":
      pending.get(body.req)?.(body);
      pending.delete(body.req);
      break;
    case "State":
      state = body;
      lastSeq = body.last_seq;
      clocksAt = performance.now();
      showMatch();
      break;
    case "Event":
      if (state && body.match_id === state.match_id) applyEvent(body);
      break;
    case "Chat":
      log(`[${body.scope === "Team" ? "team" : "all"}] ${body.from}: ${body.text}`);
      break;
  }
}

function applyEvent(e) {
  lastSeq = e.seq;
  state.clocks_ms = e.clocks_ms;
  state.running = e.running;
  clocksAt = performance.now();
  if (e.bfen) state.bfen = e.bfen;
  const k = e.kind;
  if (typeof k === "string") {
    if (k === "Started") state.phase = "Running";
  } else if (k.SeatTaken) state.seats[SEATS.indexOf(k.SeatTaken.seat)] = k.SeatTaken.name;
  else if (k.SeatLeft) state.seats[SEATS.indexOf(k.SeatLeft.seat)] = null;
  else if (k.Moved) { state.last = [k.Moved.seat, k.Moved.uci]; log(`${k.Moved.seat}: ${k.Moved.san}`); }
  else if (k.Ended) { state.phase = "Ended"; state.result = k.Ended; }
  else if (k.Arbiter) log(`arbiter ${k.Arbiter.act}`);
  showMatch();
}

async function showLobby() {
  state = null;
  $("lobby").hidden = false;
  $("match").hidden = true;
  const r = await ask(msg.listMatches());
  const body = $("matches").tBodies[0];
  body.replaceChildren();
  for (const m of r.ok?.Matches ?? []) {
    const row = body.insertRow();
    for (const v of [m.match_id, m.rules, m.time_control, m.phase, ...m.seats]) row.insertCell().textContent = v ?? "·";
    const cell = row.insertCell();
    SEATS.forEach((seat, i) => {
      if (m.seats[i]) return;
      const b = document.createElement("button");
      b.textContent = `sit ${["a-white", "a-black", "b-white", "b-black"][i]}`;
      b.onclick = () => ask(msg.takeSeat(m.match_id, seat));
      cell.append(b);
    });
    const w = document.createElement("button");
    w.textContent = "watch";
    w.onclick = () => ask(msg.watch(m.match_id));
    cell.append(w);
  }
}

function showMatch() {
  $("lobby").hidden = true;
  $("match").hidden = false;
  const s = state;
  $("title").textContent = `match ${s.match_id} · ${s.rules} · ${s.time_control} · ${s.phase}` +
    (s.your_seat ? ` · you play ${s.your_seat}` : " · watching");
  const boards = readBfen(s.bfen);
  const me = s.your_seat;
  const order = me && me.endsWith("B") ? [1, 0] : [0, 1];
  const elapsed = performance.now() - clocksAt;
  $("boards").replaceChildren(...order.map((i) => boardView(i, boards[i], elapsed)));
  $("result").textContent = s.result ? s.result.reason : "";
}

function boardView(i, board, elapsed) {
  const letter = i === 0 ? "A" : "B";
  const me = state.your_seat;
  // The player's own board from his side; the partner's from the partner's; spectators: A white, B black.
  const whiteBottom = me ? (me.endsWith(letter) ? me.startsWith("White") : !me.startsWith("White")) : i === 0;
  const wrap = document.createElement("div");
  const player = (white) => {
    const seatIdx = i * 2 + (white ? 0 : 1);
    const div = document.createElement("div");
    const running = state.running[seatIdx];
    div.className = "player" + (state.phase === "Running" && (board.turn === "w") === white ? " turn" : "");
    const ms = state.clocks_ms[seatIdx] - (running ? elapsed : 0);
    const reserve = Object.entries(reserveOf(board.reserve, white)).map(([r, n]) => `${r}${n}`).join(" ");
    div.innerHTML = "";
    div.append(`${state.seats[seatIdx] ?? "(empty)"} ${SEATS[seatIdx]} `);
    const clock = document.createElement("span");
    clock.className = "clock" + (running ? " running" : "");
    clock.textContent = formatClock(ms);
    div.append(clock, ` [${reserve}]`);
    return div;
  };
  const grid = document.createElement("div");
  grid.className = "board";
  const last = state.last && (state.last[0].endsWith(letter)) ? state.last[1] : "";
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const row = whiteBottom ? r : 7 - r, col = whiteBottom ? f : 7 - f;
      const sq = document.createElement("div");
      const name = "abcdefgh"[col] + (8 - row);
      sq.className = `sq ${(row + col) % 2 ? "dark" : "light"}` + (last.includes(name) ? " last" : "");
      sq.textContent = GLYPH[board.squares[row * 8 + col]] ?? "";
      grid.append(sq);
    }
  }
  wrap.append(player(!whiteBottom), grid, player(whiteBottom));
  return wrap;
}

$("login-form").onsubmit = (e) => { e.preventDefault(); name = $("name").value; connect(); };
$("create-form").onsubmit = async (e) => {
  e.preventDefault();
  const r = await ask(msg.createMatch($("rules").value, $("tc").value, true));
  if (r.ok) showLobby();
};
$("move-form").onsubmit = async (e) => {
  e.preventDefault();
  const me = state?.your_seat;
  if (!me) return log("you are watching", true);
  await ask(msg.move(me.endsWith("A") ? "A" : "B", $("move").value.trim()));
  $("move").value = "";
};
$("ready").onclick = () => ask(msg.ready(true));
$("draw").onclick = () => ask(msg.offerDraw());
$("resign").onclick = () => ask(msg.resign());
$("lobby-back").onclick = () => showLobby();
setInterval(() => { if (state && state.phase === "Running") showMatch(); }, 100);
setInterval(() => { if (!state && token && socket.readyState === 1) showLobby(); }, 3000);
