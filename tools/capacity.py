#!/usr/bin/env python3
"""Capacity of one ``shvedka serve``, measured from outside, as README.md reports it.

For each number of matches: starts a server (its own data directory, or PostgreSQL with
``--database-url``) and ``shvedka load`` as two processes on this machine, samples the server's
CPU (from /proc) while the load plays, reads its RSS and ``/metrics`` at the end, and prints one
line per run::

    python3 tools/capacity.py --matches 500,1000,2000                 # SQLite on disk, 30 s each
    python3 tools/capacity.py --matches 1000 --duration 600 --rss-every 30   # RSS over ten minutes
    python3 tools/capacity.py --matches 1000 --database-url 'postgres://postgres@localhost/postgres?host=/tmp/pg'
    python3 tools/capacity.py --matches 500 --spectators 5000      # a crowd of 5,000 watching one match
    python3 tools/capacity.py --matches 500 --spectators 5000 --crowd-apart   # the crowd in a generator of its own

The binary is ``target/release/shvedka`` (``cargo build --release`` first) unless ``--bin``
says otherwise. Everything runs on loopback (127.0.0.1) and stops by itself.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

TICK = os.sysconf("SC_CLK_TCK")

# How much longer a crowd apart plays than the others (it starts first, and must outlast their
# set-up and their run).
CROWD_SLACK_S = 20


def cpu_ticks(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def udp_drops(server_port):
    """Datagrams dropped so far by full receive buffers: (the server's socket, every other UDP socket
    on the machine, which during a run are load's).

    From /proc/net/udp{,6} (the last column); on loopback every drop is a packet the receiving
    process did not read in time, which QUIC then sends again after a timeout: a latency tail.
    """
    server = others = 0
    for path in ("/proc/net/udp", "/proc/net/udp6"):
        try:
            lines = open(path).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            port = int(fields[1].rsplit(":", 1)[1], 16)
            if port == server_port:
                server += int(fields[-1])
            else:
                others += int(fields[-1])
    return server, others


def metric(text, name):
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def quantile_bound(text, name, q):
    """The upper bound of the histogram bucket holding quantile q, in milliseconds."""
    buckets = []
    for line in text.splitlines():
        found = re.match(name + r'_bucket\{le="([^"]+)"\} (\S+)', line)
        if found and found.group(1) != "+Inf":
            buckets.append((float(found.group(1)), float(found.group(2))))
    total = metric(text, name + "_count")
    for le, cumulative in buckets:
        if total and cumulative >= q * total:
            return le * 1000
    return float("inf")


def run(args, matches):
    work = tempfile.mkdtemp(prefix=f"shvedka-capacity-{matches}-", dir=args.data_parent)
    config = os.path.join(work, "server.toml")
    with open(config, "w") as f:
        f.write(
            f'listen = "127.0.0.1:{args.port}"\n'
            f'http_listen = "127.0.0.1:{args.port + 1}"\n'
            'webtransport_listen = ""\n'
            f'data_dir = "{work}/data"\n'
            "max_connections = 20000\nmax_matches = 20000\n"
            # Every simulated player comes from 127.0.0.1.
            "max_connections_per_address = 20000\nretry_handshakes_above = 100000\n"
            "guest_sessions_per_address_per_hour = 100000\n"
            "new_connections_per_address_per_second = 100000\n"
            "rate_per_second = 1000\nrate_burst = 1000\n"
            f"udp_recv_buffer = {args.udp_recv_buffer}\n"
        )
        if args.database_url:
            f.write(f'database_url = "{args.database_url}"\n')
    server = subprocess.Popen(
        [args.bin, "serve", "--config", config],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    fingerprint = None
    for line in server.stdout:
        found = re.search(r"sha256 ([0-9a-f]{64})", line)
        if found:
            fingerprint = found.group(1)
            break
    if not fingerprint:
        sys.exit("the server printed no certificate fingerprint")
    def load_process(matches, duration, spectators):
        return subprocess.Popen(
            [args.bin, "load", "--running-server", "--server", f"127.0.0.1:{args.port}", "--fingerprint", fingerprint,
             "--matches", str(matches), "--duration", str(duration), "--pace-ms", str(args.pace_ms),
             "--time-control", args.time_control, "--spectators", str(spectators)],
            stdout=subprocess.PIPE,
            text=True,
        )

    crowd = apart_load = ""
    apart = None
    if args.spectators and args.crowd_apart:
        # The watched match and its crowd in a process of their own, playing through the others'
        # set-up and their whole run: the others' latencies are then not queued behind the
        # crowd's work in the same generator.
        apart = load_process(1, args.duration + CROWD_SLACK_S, args.spectators)
        for line in apart.stdout:
            print("    crowd " + line.rstrip(), flush=True)
            if "playing for" in line:
                break
        crowd_lines = []

        def read_apart():
            for line in apart.stdout:
                print("    crowd " + line.rstrip(), flush=True)
                if line.startswith("crowd:"):
                    crowd_lines.append(" " + line.strip())

        reader = threading.Thread(target=read_apart, daemon=True)
        reader.start()
        load = load_process(matches - 1, args.duration, 0)
    else:
        load = load_process(matches, args.duration, args.spectators)
    started = server_ticks = load_ticks = None
    summary = ""
    rss = []

    def sample():
        while load.poll() is None:
            rss.append((time.time() - started, rss_kib(server.pid)))
            dropped = udp_drops(args.port)[0] - drops_before[0]
            print(f"    rss at {rss[-1][0]:5.0f} s: {rss[-1][1] // 1024} MiB, server socket drops so far {dropped}", flush=True)
            time.sleep(args.rss_every)

    for line in load.stdout:
        print("    " + line.rstrip(), flush=True)
        if line.startswith("crowd:"):
            crowd = " " + line.strip()
        if "playing for" in line:
            started, server_ticks, load_ticks = time.time(), cpu_ticks(server.pid), cpu_ticks(load.pid)
            apart_ticks = cpu_ticks(apart.pid) if apart else 0
            drops_before = udp_drops(args.port)
            if args.rss_every:
                threading.Thread(target=sample, daemon=True).start()
        if line.startswith("load: offered"):
            summary = line.strip()
            elapsed = time.time() - started
            server_cpu = (cpu_ticks(server.pid) - server_ticks) / TICK / elapsed * 100
            load_cpu = (cpu_ticks(load.pid) - load_ticks) / TICK / elapsed * 100
            if apart:
                apart_cpu = (cpu_ticks(apart.pid) - apart_ticks) / TICK / elapsed * 100
                apart_load = f" crowd_load_cpu={apart_cpu:.0f}%"
            drops_after = udp_drops(args.port)
    load.wait()
    if apart:
        apart.wait()
        reader.join()
        crowd = "".join(crowd_lines) + apart_load
    text = urllib.request.urlopen(f"http://127.0.0.1:{args.port + 1}/metrics").read().decode()
    commits = metric(text, "shvedka_commit_seconds_count")
    commit_ms = metric(text, "shvedka_commit_seconds_sum") / max(commits, 1) * 1000
    batch = metric(text, "shvedka_commit_batch_matches_sum") / max(commits, 1)
    end_rss = rss_kib(server.pid)
    server.terminate()
    server.wait()
    shutil.rmtree(work, ignore_errors=True)
    print(
        f"RESULT matches={matches} {summary} server_cpu={server_cpu:.0f}% "
        f"server_rss={end_rss // 1024}MiB load_cpu={load_cpu:.0f}% "
        f"commit_mean={commit_ms:.1f}ms batch_mean={batch:.1f} "
        f"server_move_p99<={quantile_bound(text, 'shvedka_move_seconds', 0.99):g}ms "
        f"commit_p99<={quantile_bound(text, 'shvedka_commit_seconds', 0.99):g}ms "
        f"udp_drops_server={drops_after[0] - drops_before[0]} udp_drops_load={drops_after[1] - drops_before[1]}"
        f"{crowd}",
        flush=True,
    )
    if rss:
        early = [kib for at, kib in rss if at >= 120]
        if early:
            growth = (rss[-1][1] - early[0]) / early[0] * 100
            print(f"RSS minute 2: {early[0] // 1024} MiB, end: {rss[-1][1] // 1024} MiB ({growth:+.1f} %)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", default="200,500,1000,2000", help="comma-separated")
    parser.add_argument("--duration", type=int, default=30, help="seconds of play per run")
    parser.add_argument("--pace-ms", type=int, default=1000)
    parser.add_argument("--time-control", default="300+0")
    parser.add_argument("--bin", default="target/release/shvedka")
    parser.add_argument("--database-url", default="")
    parser.add_argument("--data-parent", default="/var/tmp", help="where the data directory goes")
    parser.add_argument("--port", type=int, default=18475)
    parser.add_argument("--udp-recv-buffer", type=int, default=4 << 20,
                        help="the server's udp_recv_buffer, bytes (Linux caps it at net.core.rmem_max)")
    parser.add_argument("--rss-every", type=int, default=0, help="sample RSS every N seconds")
    parser.add_argument("--spectators", type=int, default=0,
                        help="sessions watching the first match (shvedka load --spectators)")
    parser.add_argument("--crowd-apart", action="store_true",
                        help="the watched match and its spectators in a load process of their own "
                             f"(playing {CROWD_SLACK_S} s longer, through the others' set-up); "
                             "the load CPU is then the others' process's")
    args = parser.parse_args()
    for matches in [int(m) for m in args.matches.split(",")]:
        run(args, matches)


if __name__ == "__main__":
    main()
