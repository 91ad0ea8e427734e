#!/usr/bin/env python3
"""What one move costs the server, in instructions, and where (ARCHITECTURE.md reports it).

Runs ``shvedka serve`` under ``valgrind --tool=callgrind`` with instrumentation switched on only
once play has started, and ``shvedka load`` outside it (a few matches, one move a second per
board); then divides the instructions the server executed by the moves served, in total and for
the parts of the path a move takes. Instruction counts are repeatable on a shared, noisy machine
where timings are not; they leave out the kernel (system calls, context switches), which
``perf`` shows instead::

    cargo build --release
    python3 tools/move_cost.py                      # 10 matches, 20 s
    python3 tools/move_cost.py --matches 20 --duration 30

The database is in a temporary directory (on /dev/shm when it exists: the disk's flush is the
kernel's cost, not the server's instructions). Everything runs on loopback and stops by itself.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The parts of a move's path: (label, a pattern of the function whose inclusive cost counts).
PARTS = [
    ("storage: the SQLite worker thread (sqlx + SQLite)", r"sqlx-sqlite-[0-9.]+/src/connection/worker\.rs:std::sys::backtrace::__rust_begin_short_backtrace$"),
    ("match task: everything (below: parts of it)", r"room/mod\.rs:shvedka_server::service::room::Room::run::\{\{closure\}\}$"),
    ("  the rules: apply the command (Match::handle_command)", r"bughouse_match::machine::Match::handle_command$"),
    ("  the rules: read the move text (Game::parse_move)", r"bughouse::notation::<impl bughouse::game::Game>::parse_move$"),
    ("  wire views of the events, with BFEN (poll_batch)", r"Room>::poll_batch$"),
    ("  events as JSON rows for the store (durable::rows)", r"shvedka_server::service::room::durable::rows$"),
    ("group-commit task (committer::write)", r"committer\.rs:shvedka_server::service::committer::write::\{\{closure\}\}$"),
    ("QUIC: connection drivers (quinn)", r"quinn-[0-9.]+/src/connection\.rs:<quinn::connection::ConnectionDriver as core::future::future::Future>::poll$"),
    ("QUIC: endpoint driver (UDP in, quinn)", r"quinn-[0-9.]+/src/endpoint\.rs:<quinn::endpoint::EndpointDriver as core::future::future::Future>::poll$"),
    ("connection writers (encode once, frame, write)", r"frames\.rs:shvedka_server::transport::frames::write_loop(::<.*>)?::\{\{closure\}\}$"),
    ("encoding a message (Encoding::payload)", r"encoding\.rs:shvedka_server::service::encoding::Encoding::payload$"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--duration", type=int, default=20)
    parser.add_argument("--bin", default="target/release/shvedka")
    parser.add_argument("--port", type=int, default=18575)
    parser.add_argument("--annotated", help="also write callgrind_annotate's inclusive listing here")
    args = parser.parse_args()
    parent = "/dev/shm" if os.path.isdir("/dev/shm") else None
    work = tempfile.mkdtemp(prefix="shvedka-move-cost-", dir=parent)
    config = os.path.join(work, "server.toml")
    with open(config, "w") as f:
        f.write(
            f'listen = "127.0.0.1:{args.port}"\nhttp_listen = "127.0.0.1:{args.port + 1}"\n'
            f'webtransport_listen = ""\ndata_dir = "{work}/data"\n'
            "rate_per_second = 1000\nrate_burst = 1000\nhello_timeout_s = 120\n"
        )
    out = os.path.join(work, "callgrind.out")
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
         args.bin, "serve", "--config", config],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    fingerprint = None
    for line in server.stdout:
        found = re.search(r"sha256 ([0-9a-f]{64})", line)
        if found:
            fingerprint = found.group(1)
            break
    load = subprocess.Popen(
        [args.bin, "load", "--running-server", "--server", f"127.0.0.1:{args.port}", "--fingerprint", fingerprint,
         "--matches", str(args.matches), "--duration", str(args.duration), "--time-control", "600+0"],
        stdout=subprocess.PIPE, text=True,
    )
    served = 0
    for line in load.stdout:
        print("    " + line.rstrip(), flush=True)
        if "playing for" in line:
            subprocess.run(["callgrind_control", "-i", "on", str(server.pid)], stdout=subprocess.DEVNULL)
        found = re.search(r"\((\d+) of \d+\)", line)
        if found:
            served = int(found.group(1))
    subprocess.run(["callgrind_control", "-i", "off", str(server.pid)], stdout=subprocess.DEVNULL)
    server.terminate()
    server.wait()
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
        capture_output=True, text=True,
    ).stdout
    shutil.rmtree(work, ignore_errors=True)
    if args.annotated:
        with open(args.annotated, "w") as f:
            f.write(annotated)
    if not served:
        sys.exit("no move was served")
    rows = []
    total = 0
    for line in annotated.splitlines():
        found = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*?)(?: \[.*\])?$", line)
        if not found:
            continue
        count, name = int(found.group(1).replace(",", "")), found.group(2)
        if name == "PROGRAM TOTALS":
            total = count
        rows.append((count, name))
    print(f"\n{served} moves served; instructions of the server per move (user space):\n")
    print(f"| part | instructions per move | share |\n|---|---|---|")
    print(f"| everything | {total / served:,.0f} | 100 % |")
    for label, pattern in PARTS:
        count = next((c for c, name in rows if re.search(pattern, name)), 0)
        print(f"| {label} | {count / served:,.0f} | {count / total * 100:.0f} % |")


if __name__ == "__main__":
    main()
