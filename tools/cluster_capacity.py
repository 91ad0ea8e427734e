#!/usr/bin/env python3
"""Cluster mode measured from outside, as README.md reports it: the throughput of two nodes against
one, and the failover time.

Throughput: for each total of matches and each number of nodes (``--nodes 1,2``) it starts a
throwaway PostgreSQL (initdb into a temporary directory, reachable by a Unix socket only, fsync
on), a ``nats-server`` on 127.0.0.1 and that many ``shvedka serve`` nodes with a ``[cluster]``
section (the second node uses the first one's certificate and key), then one ``shvedka load`` per
node with its share of the matches (load creates its matches on the node it connects to, so each
node runs its own), a move per board per second. It samples each node's CPU (from /proc) while
both loads play, PostgreSQL's and the loads' too, reads each node's RSS and ``/metrics`` at the
end, prints a RESULT line per run and a Markdown table at the end::

    python3 tools/cluster_capacity.py --matches 500,1000,2000,3000 --nodes 1,2 --quiet-wait 30

The nodes' leases are 60000/20000 ms there (``--lease``), as README's rows were measured.

Failover: runs the two-node test of ``crates/shvedka/tests/failover.rs`` (PostgreSQL, NATS, two nodes, a match on one,
SIGKILL of it, the match taken over by the other and played on) ``--runs`` times for each lease
setting, and prints min/median/max of the time from SIGKILL to the first move accepted on the new
node::

    python3 tools/cluster_capacity.py --failover 2000/250,5000/1000 --runs 5

The binary is ``target/release/shvedka`` (``cargo build --release -p shvedka`` first) unless
``--bin`` says otherwise; the failover runs build the test with ``cargo nextest run --release``.
Everything runs on loopback (127.0.0.1, free ports) and is stopped and deleted at the end, on an
error too. Nothing system-wide is changed (as tools/capacity.py: the nodes ask for
``udp_recv_buffer``, which Linux caps at ``net.core.rmem_max``).
"""

import argparse
import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from capacity import TICK, cpu_ticks, metric, quantile_bound, rss_kib, udp_drops


def load_average():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def machine_ticks():
    """CPU ticks every process on the machine used, all cores: user, nice, system, irq and softirq
    of /proc/stat (guest time is in user already; idle, iowait and steal are nobody's)."""
    fields = [int(v) for v in open("/proc/stat").readline().split()[1:]]
    return sum(fields[0:3]) + fields[5] + fields[6]


def is_root():
    return os.geteuid() == 0


def free_port(kind):
    """A port nothing on 127.0.0.1 uses now (the kernel's choice), UDP or TCP."""
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_bin():
    """The newest installed server's binaries (Debian's ``postgresql``), as crates/testkit does."""
    found = []
    for version in os.listdir("/usr/lib/postgresql") if os.path.isdir("/usr/lib/postgresql") else []:
        bin_dir = os.path.join("/usr/lib/postgresql", version, "bin")
        if os.path.exists(os.path.join(bin_dir, "initdb")) and version.isdigit():
            found.append((int(version), bin_dir))
    if not found:
        sys.exit("no PostgreSQL server found in /usr/lib/postgresql: install Debian's `postgresql`")
    return max(found)[1]


def pg_tool(bin_dir, tool, *args):
    """A server tool, run as the `postgres` user when we are root (PostgreSQL insists)."""
    command = [os.path.join(bin_dir, tool), *args]
    return ["runuser", "-u", "postgres", "--", *command] if is_root() else command


def start_postgres(stack, parent):
    """A throwaway PostgreSQL (fsync on, Unix socket only) in a directory of its own; gives the
    URL and the directory. Stopped (immediate) and deleted when ``stack`` closes."""
    bin_dir = postgres_bin()
    root = tempfile.mkdtemp(prefix="shvedka-cluster-pg-", dir=parent)
    stack.callback(shutil.rmtree, root, ignore_errors=True)
    data = os.path.join(root, "data")
    if is_root():
        subprocess.run(["chown", "-R", "postgres:postgres", root], check=True)
    subprocess.run(pg_tool(bin_dir, "initdb", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8",
                           "-D", data), check=True, stdout=subprocess.DEVNULL)
    stack.callback(stop_postgres, bin_dir, data)
    options = f"-c listen_addresses='' -k {root} -c fsync=on"
    subprocess.run(pg_tool(bin_dir, "pg_ctl", "-D", data, "-o", options, "-w", "-l",
                           os.path.join(root, "log"), "start"), check=True, stdout=subprocess.DEVNULL)
    return f"postgres://postgres@localhost/postgres?host={root}", root


def stop_postgres(bin_dir, data):
    subprocess.run(pg_tool(bin_dir, "pg_ctl", "-D", data, "-m", "immediate", "stop"),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid = postmaster_pid(data)
    if pid:  # pg_ctl failed: the postmaster by its own id
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def postmaster_pid(data):
    try:
        pid = int(open(os.path.join(data, "postmaster.pid")).readline())
    except (OSError, ValueError):
        return None
    return pid if os.path.exists(f"/proc/{pid}") else None


def tree_ticks(pid):
    """CPU ticks of a process and of its live children (PostgreSQL: the postmaster and its
    backends, which live as long as the nodes' pools keep their connections)."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == pid or int(stat[1]) == pid:
            total += int(stat[11]) + int(stat[12])
    return total


def kill(process):
    """Stops a process this tool started, by its id: SIGKILL, then reaps it."""
    if process.poll() is None:
        process.kill()
    process.wait()


def start_nats(stack, parent):
    """``nats-server`` on 127.0.0.1 on a port it picks, read back from its ports file, its one user
    ``node`` with a random password (loopback needs no TLS; a node refuses NATS without
    credentials); gives the nodes' ``[cluster]`` NATS lines and the process. Killed and its
    directory deleted when ``stack`` closes."""
    directory = tempfile.mkdtemp(prefix="shvedka-cluster-nats-", dir=parent)
    stack.callback(shutil.rmtree, directory, ignore_errors=True)
    exe = shutil.which("nats-server") or "/usr/sbin/nats-server"
    password = secrets.token_hex(16)
    nats = subprocess.Popen([exe, "-a", "127.0.0.1", "-p", "-1", "--user", "node", "--pass", password,
                             "--ports_file_dir", directory,
                             "-l", os.path.join(directory, "log")],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stack.callback(kill, nats)
    ports = os.path.join(directory, f"nats-server_{nats.pid}.ports")
    deadline = time.time() + 10
    while time.time() < deadline:
        with contextlib.suppress(OSError):
            found = re.search(r'nats://127\.0\.0\.1:\d+', open(ports).read())
            if found:
                settings = f'nats_url = "{found.group(0)}"\nnats_user = "node"\nnats_password = "{password}"\n'
                return settings, nats
        if nats.poll() is not None:
            sys.exit(f"nats-server exited at start; its log: {directory}/log")
        time.sleep(0.02)
    sys.exit("nats-server did not listen within 10 s")


class Node:
    """One ``shvedka serve`` of the cluster."""

    def __init__(self, stack, args, work, name, database_url, nats_settings, cert_from=None,
                 lease=(5000, 1000)):
        self.name = name
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir)
        self.port, self.http_port = free_port(socket.SOCK_DGRAM), free_port(socket.SOCK_STREAM)
        shared = ""
        if cert_from:
            shared = (f'cert = "{cert_from.dir}/data/cert.pem"\n'
                      f'key = "{cert_from.dir}/data/key.pem"\n')
        config = os.path.join(self.dir, "server.toml")
        with open(config, "w") as f:
            f.write(
                f'listen = "127.0.0.1:{self.port}"\n'
                f'http_listen = "127.0.0.1:{self.http_port}"\n'
                'webtransport_listen = ""\n'
                f'data_dir = "{self.dir}/data"\n'
                "max_connections = 20000\nmax_matches = 20000\n"
                # Every simulated player comes from 127.0.0.1.
                "max_connections_per_address = 20000\nretry_handshakes_above = 100000\n"
                "guest_sessions_per_address_per_hour = 100000\n"
                "new_connections_per_address_per_second = 100000\n"
                "rate_per_second = 1000\nrate_burst = 1000\n"
                f"udp_recv_buffer = {args.udp_recv_buffer}\n"
                f'database_url = "{database_url}"\n'
                f"{shared}"
                "[cluster]\n"
                f'node = "{name}"\n{nats_settings}'
                f"lease_ms = {lease[0]}\nlease_renew_ms = {lease[1]}\n"
            )
        self.log = os.path.join(self.dir, "stderr.log")
        with open(self.log, "w") as log:
            self.process = subprocess.Popen([args.bin, "serve", "--config", config], stdout=subprocess.PIPE,
                                            stderr=log, text=True)
        stack.callback(kill, self.process)
        self.fingerprint = None
        for line in self.process.stdout:
            found = re.search(r"sha256 ([0-9a-f]{64})", line)
            if found:
                self.fingerprint = found.group(1)
                break
        if not self.fingerprint:
            sys.exit(f"node {name} printed no certificate fingerprint: {open(self.log).read()[-2000:]}")
        # Keep reading its output, so it never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in self.process.stdout], daemon=True).start()

    def metrics(self):
        return urllib.request.urlopen(f"http://127.0.0.1:{self.http_port}/metrics").read().decode()


class Load:
    """One ``shvedka load`` against one node; notes when it starts playing and when it reports,
    with every watched process's CPU ticks at those instants."""

    def __init__(self, args, node, matches, watched):
        self.node = node
        self.watched = watched
        self.process = subprocess.Popen(
            [args.bin, "load", "--running-server", "--server", f"127.0.0.1:{node.port}", "--fingerprint", node.fingerprint,
             "--matches", str(matches), "--duration", str(args.duration), "--pace-ms", str(args.pace_ms),
             "--time-control", args.time_control],
            stdout=subprocess.PIPE, text=True)
        self.started = self.ended = None
        self.summary = ""
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def snapshot(self):
        now, ticks = time.time(), {}
        for key, read in list(self.watched.items()):
            with contextlib.suppress(OSError):
                ticks[key] = read()
        return now, ticks

    def read(self):
        for line in self.process.stdout:
            print(f"    [{self.node.name}] " + line.rstrip(), flush=True)
            if "playing for" in line:
                self.started = self.snapshot()
            if line.startswith("load: offered"):
                self.ended = self.snapshot()
                self.summary = line.strip()

    def result(self):
        """(offered/s, served/s, p50 ms, p99 ms, max ms, errors, disconnected) from its summary."""
        found = re.search(r"offered (\S+) moves/s, served (\S+) moves/s .*p50 (\S+) ms, p99 (\S+) ms, "
                          r"max (\S+) ms, refused \d+, errors (\d+), disconnected (\d+)", self.summary)
        if not found:
            sys.exit(f"load against {self.node.name} gave no summary")
        return [float(v) for v in found.groups()]


def merged_quantile(texts, name, q):
    """The upper bound, ms, of the bucket holding quantile q of the histogram ``name`` summed over
    every node's /metrics (the nodes' buckets are the same)."""
    buckets, total = {}, 0.0
    for text in texts:
        for line in text.splitlines():
            found = re.match(name + r'_bucket\{le="([^"]+)"\} (\S+)', line)
            if found and found.group(1) != "+Inf":
                buckets[float(found.group(1))] = buckets.get(float(found.group(1)), 0.0) + float(found.group(2))
        total += metric(text, name + "_count")
    for le in sorted(buckets):
        if total and buckets[le] >= q * total:
            return le * 1000
    return float("inf")


class RowFailed(Exception):
    """A run that could not be measured (a load failed while setting its matches up)."""


def quiet(args):
    """Waits (at most ``--quiet-wait`` seconds) until the machine's CPU, all of it other
    processes' now, stays under ``--quiet-below`` percent of one core over 5 s; gives what it was."""
    deadline = time.time() + args.quiet_wait
    while True:
        before = machine_ticks()
        time.sleep(5)
        busy = (machine_ticks() - before) / TICK / 5 * 100
        if busy < args.quiet_below or time.time() >= deadline:
            return busy
        print(f"  the machine is busy ({busy:.0f} % of a core used by others); waiting", flush=True)


def throughput(args, matches, nodes):
    """One row: ``matches`` in total over ``nodes`` nodes."""
    before = quiet(args) if args.quiet_wait else None
    print(f"== {nodes} node(s), {matches} matches; load average {load_average()}"
          + (f", others' CPU {before:.0f} % of a core just before" if before is not None else ""), flush=True)
    with contextlib.ExitStack() as stack:
        work = tempfile.mkdtemp(prefix=f"shvedka-cluster-{nodes}x{matches}-", dir=args.data_parent)
        stack.callback(shutil.rmtree, work, ignore_errors=True)
        database_url, pg_root = start_postgres(stack, args.data_parent)
        nats_settings, nats = start_nats(stack, args.data_parent)
        cluster = []
        for i in range(nodes):
            cluster.append(Node(stack, args, work, f"node-{i + 1}", database_url, nats_settings,
                                cert_from=cluster[0] if cluster else None, lease=args.lease))
        postmaster = postmaster_pid(os.path.join(pg_root, "data"))
        watched = {n.name: (lambda pid=n.process.pid: cpu_ticks(pid)) for n in cluster}
        watched["postgres"] = lambda: tree_ticks(postmaster)
        watched["nats"] = lambda: cpu_ticks(nats.pid)
        watched["machine"] = machine_ticks
        loads = []
        for i, node in enumerate(cluster):
            share = matches // nodes + (1 if i < matches % nodes else 0)
            loads.append(Load(args, node, share, watched))
            stack.callback(kill, loads[-1].process)
        for load in loads:
            watched[f"load-{load.node.name}"] = lambda pid=load.process.pid: cpu_ticks(pid)
        drops_before = [udp_drops(n.port) for n in cluster]
        for load in loads:  # the reader first: the process is reaped only once its last line is read
            load.reader.join()
            load.process.wait()
        drops_after = [udp_drops(n.port) for n in cluster]
        if not all(load.started and load.ended for load in loads):
            for node in cluster:
                lines = open(node.log).read().splitlines()
                print(f"  {node.name}'s last log lines ({len(lines)} in all):", *lines[-15:], sep="\n    ")
            raise RowFailed("a load ended before it played")
        # The window in which every load played: the last start to the first end.
        start = max((load.started for load in loads), key=lambda s: s[0])
        end = min((load.ended for load in loads), key=lambda s: s[0])
        overlap = end[0] - start[0]
        if overlap < args.duration / 2:
            sys.exit(f"the loads played together for {overlap:.1f} s only")
        cpu = {key: (end[1][key] - start[1][key]) / TICK / overlap * 100
               for key in start[1] if key in end[1]}
        texts = [n.metrics() for n in cluster]
        rss = [rss_kib(n.process.pid) // 1024 for n in cluster]
        seen = [int(metric(t, "shvedka_cluster_nodes")) for t in texts]
        results = [load.result() for load in loads]
        row = {
            "nodes": nodes,
            "matches": matches,
            "offered": sum(r[0] for r in results),
            "served": sum(r[1] for r in results),
            "p50": max(r[2] for r in results),
            "p99": max(r[3] for r in results),
            "max": max(r[4] for r in results),
            "errors": sum(int(r[5]) for r in results),
            "disconnected": sum(int(r[6]) for r in results),
            "server_p99": merged_quantile(texts, "shvedka_move_seconds", 0.99),
            "commit_p99": merged_quantile(texts, "shvedka_commit_seconds", 0.99),
            "drops": sum(a[0] - b[0] for a, b in zip(drops_after, drops_before)),
            "node_cpu": [cpu[n.name] for n in cluster],
            "node_rss": rss,
            "pg_cpu": cpu["postgres"],
            "load_cpu": sum(cpu[f"load-{n.name}"] for n in cluster),
            "nats_cpu": cpu["nats"],
            "machine_cpu": cpu["machine"],
            "other_cpu": cpu["machine"] - sum(v for k, v in cpu.items() if k != "machine"),
            "overlap": overlap,
            "seen": seen,
            "loadavg": load_average(),
        }
        print(
            f"RESULT nodes={nodes} matches={matches} offered={row['offered']:.0f}/s served={row['served']:.0f}/s "
            f"p50_worst={row['p50']:.1f}ms p99_worst={row['p99']:.1f}ms max={row['max']:.1f}ms "
            f"errors={row['errors']} disconnected={row['disconnected']} "
            f"server_move_p99<={row['server_p99']:g}ms commit_p99<={row['commit_p99']:g}ms "
            f"udp_drops_nodes={row['drops']} "
            f"node_cpu={'/'.join(f'{c:.0f}%' for c in row['node_cpu'])} "
            f"node_rss={'/'.join(f'{r}MiB' for r in rss)} pg_cpu={row['pg_cpu']:.0f}% "
            f"load_cpu={row['load_cpu']:.0f}% nats_cpu={row['nats_cpu']:.0f}% "
            f"machine_cpu={row['machine_cpu']:.0f}% of {os.cpu_count() * 100}% (others {row['other_cpu']:.0f}%) "
            f"lease={args.lease[0]}/{args.lease[1]}ms played_together={overlap:.1f}s nodes_seen={seen} loadavg_after={row['loadavg']}",
            flush=True,
        )
        return row


def table(rows):
    print("\n| nodes | live matches | offered moves/s | served moves/s | p50 | p99 | server p99 | drops "
          "| CPU of each node | RSS of each node | PostgreSQL CPU | load CPU | machine CPU (others) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['nodes']} | {r['matches']} | {r['offered']:.0f} | {r['served']:.0f} | {r['p50']:.1f} ms "
              f"| {r['p99']:.1f} ms | ≤ {r['server_p99']:g} ms | {r['drops']} "
              f"| {' + '.join(f'{c:.0f} %' for c in r['node_cpu'])} "
              f"| {' + '.join(f'{m} MiB' for m in r['node_rss'])} | {r['pg_cpu']:.0f} % | {r['load_cpu']:.0f} % "
              f"| {r['machine_cpu']:.0f} % ({r['other_cpu']:.0f} %) |")


def failover(args, lease, renew):
    """One run of the failover test with these leases; gives the ms from SIGKILL to the first
    move accepted on the other node."""
    env = dict(os.environ, SHVEDKA_FAILOVER_LEASE_MS=str(lease), SHVEDKA_FAILOVER_LEASE_RENEW_MS=str(renew),
               CARGO_INCREMENTAL="0")
    # A session of its own: whatever the test leaves behind when it fails is killed with its group.
    test = subprocess.Popen(["cargo", "nextest", "run", "--release", "-p", "shvedka", "--test", "failover",
                             "--no-capture", "sigkill_of_the_owning_node"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        output = test.communicate(timeout=600)[0]
    finally:
        with contextlib.suppress(OSError):
            os.killpg(test.pid, signal.SIGKILL)
        test.wait()
    found = re.search(r"failover: (\d+) ms from SIGKILL to the match taken over, (\d+) ms to the first move", output)
    if test.returncode != 0 or not found:
        print(output[-4000:])
        sys.exit(f"the failover test failed (lease_ms = {lease}, lease_renew_ms = {renew})")
    return int(found.group(1)), int(found.group(2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", default="500,1000,2000", help="total live matches, comma-separated")
    parser.add_argument("--nodes", default="1,2", help="numbers of nodes to compare, comma-separated")
    parser.add_argument("--duration", type=int, default=30, help="seconds of play per run")
    parser.add_argument("--pace-ms", type=int, default=1000)
    parser.add_argument("--time-control", default="300+0")
    parser.add_argument("--bin", default="target/release/shvedka")
    parser.add_argument("--data-parent", default="/var/tmp",
                        help="where the data directories (the nodes', PostgreSQL's, NATS's) go")
    parser.add_argument("--udp-recv-buffer", type=int, default=4 << 20,
                        help="each node's udp_recv_buffer, bytes (Linux caps it at net.core.rmem_max)")
    parser.add_argument("--lease", default="60000/20000",
                        help="the nodes' lease_ms/lease_renew_ms in the throughput runs; 60000/20000 as "
                             "README's rows were measured (before 973ff5d a take-over scan could take a match "
                             "being created from its own node: 'no live match'); 5000/1000 are the defaults")
    parser.add_argument("--retries", type=int, default=2,
                        help="runs tried again when a load fails to set its matches up")
    parser.add_argument("--quiet-wait", type=int, default=0,
                        help="before each run wait at most this many seconds for the machine to be quiet")
    parser.add_argument("--quiet-below", type=float, default=30,
                        help="quiet: other processes use less than this percent of one core")
    parser.add_argument("--failover", default="",
                        help="instead of throughput: lease settings LEASE_MS/RENEW_MS, comma-separated "
                             "(e.g. 2000/250,5000/1000), each run --runs times")
    parser.add_argument("--runs", type=int, default=5, help="failover runs per lease setting")
    args = parser.parse_args()
    args.lease = tuple(int(v) for v in args.lease.split("/"))
    if args.failover:
        print(f"load average {load_average()}", flush=True)
        for setting in args.failover.split(","):
            lease, renew = (int(v) for v in setting.split("/"))
            taken, moved = [], []
            for run in range(args.runs):
                t, m = failover(args, lease, renew)
                taken.append(t)
                moved.append(m)
                print(f"  lease_ms = {lease}, lease_renew_ms = {renew}, run {run + 1}: taken over {t} ms, "
                      f"first move {m} ms (load average {load_average()})", flush=True)
            print(f"RESULT lease_ms={lease} lease_renew_ms={renew} runs={args.runs} "
                  f"first_move_ms min={min(moved)} median={statistics.median(moved):.0f} max={max(moved)} "
                  f"taken_over_ms min={min(taken)} median={statistics.median(taken):.0f} max={max(taken)}",
                  flush=True)
        return
    rows = []
    for matches in [int(m) for m in args.matches.split(",")]:
        for nodes in [int(n) for n in args.nodes.split(",")]:
            for attempt in range(args.retries + 1):
                try:
                    rows.append(throughput(args, matches, nodes))
                    break
                except RowFailed as failed:
                    print(f"FAILED nodes={nodes} matches={matches} attempt {attempt + 1}: {failed}", flush=True)
            else:
                sys.exit(f"{nodes} node(s), {matches} matches: every attempt failed")
    table(rows)


if __name__ == "__main__":
    main()
