"""Load on ``rhasp serve``'s hint endpoint: many players asking for hints at once.

Starts ``python -m rhasp serve --host 127.0.0.1 --port 0`` (the command itself, so uvicorn
runs exactly as it does for a user: one process, one event loop and FastAPI's thread pool),
waits until it answers, then runs ``--clients`` concurrent clients for
``--seconds``: each asks ``POST /api/hint`` again and again from a random position of the 40
original cards, sent as the page sends it (the card's board and the moves played, in card
notation). The positions are made beforehand by random legal moves from each card's start
(``--seed``), before the clock starts. Each run starts a fresh server and first asks one hint
from each card's start, one after another, so that the server keeps the 40 clusters (the
time these first hints take is printed apart); ``--cold`` skips that, and the first hints on
each card, searching its cluster, are timed with the rest.

The clients are asyncio tasks in this process, each with an httpx client and a connection of
its own, as players' browsers have (one pool shared by 50 tasks costs httpx 5-7 ms of CPU a
request; a client each, about 1.2 ms). They share the machine's cores with the server: on 2 cores
the latencies include the clients' own work and their waits for a core. Only the loopback
address is used.

    python bench/serve_load.py [--clients 50] [--seconds 30] [--runs 3] [--seed 14] [--cold]
                               [--server CMD]

Prints, per run and as medians over the runs, the requests, requests a second, latency
percentiles (p50, p90, p99, max; ms, from sending to the whole answer read) and errors (any
answer but 200 with a hint, or no answer); then one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import math
import os
import platform
import random
import re
import shlex
import statistics
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from rhasp.formats import read_path, write
from rhasp.notation import format_move

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "puzzles" / "original40.txt"
HOST = "127.0.0.1"  # the loopback address only
ADDRESS = re.compile(r"http://127\.0\.0\.1:(\d+)/")

if importlib.util.find_spec("sniffio") is None:
    # httpcore imports sniffio afresh for every request and falls back to asyncio when it is
    # missing: a failed import each time, 0.6 ms of the clients' CPU a request. Marked
    # missing once, the import fails at once, with the same outcome.
    sys.modules["sniffio"] = None  # type: ignore[assignment]


def positions(seed: int, per_card: int, max_moves: int) -> list[dict[str, str]]:
    """Request bodies: each card's board and a random legal walk from its start (the target
    kept on the board), ``per_card`` of them a card."""
    chance = random.Random(seed)
    bodies = []
    for puzzle in read_path(str(DECK)):
        board, text = puzzle.board, write(puzzle, "line").strip()
        for _ in range(per_card):
            state, played = puzzle.start, []
            for _ in range(chance.randint(0, max_moves)):
                choices = [(m, s) for m, s in board.successors(state) if not board.is_solved(s)]
                move, state = chance.choice(choices)
                played.append(format_move(move, board))
            bodies.append({"board": text, "moves": " ".join(played)})
    return bodies


class Server:
    """``rhasp serve`` (or ``command``, which must print the address line as it does) on the
    loopback address, on a free port, in a process of its own."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        line = self.process.stderr.readline()
        found = ADDRESS.search(line)
        if not found:
            self.stop()
            raise SystemExit(f"rhasp serve did not start: {line.strip()!r}")
        # Whatever it logs later is read (so that a full pipe never stalls it), the last
        # lines kept to show.
        self.log: deque[str] = deque(maxlen=20)
        threading.Thread(target=self.log.extend, args=(self.process.stderr,), daemon=True).start()
        self.url = f"http://{HOST}:{found[1]}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.url}/api/puzzles", timeout=5, trust_env=False).is_success:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise SystemExit("rhasp serve never answered")
            time.sleep(0.1)

    def cpu_seconds(self) -> float | None:
        """The server's CPU time so far (user and system), from /proc; None elsewhere."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class Run:
    latencies: list[float] = field(default_factory=list)  # seconds, answered requests
    errors: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    server_cpu: float | None = None
    client_cpu: float = 0.0
    warm_up: float | None = None  # seconds for the first hint of each card, one at a time

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def figures(self) -> dict[str, float | int | None]:
        ordered = sorted(self.latencies)
        count = len(ordered) + sum(self.errors.values())

        def rank(q: float) -> float | None:  # nearest rank, in ms; None: nothing answered
            if not ordered:
                return None
            return round(1000 * ordered[max(0, math.ceil(q * len(ordered)) - 1)], 1)

        return {
            "requests": count,
            "req_per_s": round(count / self.seconds, 1),
            "p50_ms": rank(0.50),
            "p90_ms": rank(0.90),
            "p99_ms": rank(0.99),
            "max_ms": rank(1.0),
            "errors": sum(self.errors.values()),
            "server_cpu_s": None if self.server_cpu is None else round(self.server_cpu, 1),
            "client_cpu_s": round(self.client_cpu, 1),
            "warm_up_s": None if self.warm_up is None else round(self.warm_up, 2),
        }


async def client(
    http: httpx.AsyncClient, bodies: list, chance: random.Random, until: float, run: Run
) -> None:
    """One player: hints from random positions, one at a time on a connection of its own (a
    browser's), until the clock says stop."""
    while time.perf_counter() < until:
        body = chance.choice(bodies)
        began = time.perf_counter()
        try:
            response = await http.post("/api/hint", json=body)
        except httpx.HTTPError as error:
            run.error(type(error).__name__)
            continue
        took = time.perf_counter() - began
        if response.status_code != 200 or "moves_left" not in response.json():
            run.error(f"HTTP {response.status_code}")
        else:
            run.latencies.append(took)


async def load(url: str, bodies: list, clients: int, seconds: float, seed: int) -> Run:
    run = Run()
    # Made before the clock starts: an httpx client builds its TLS context when made (tens of
    # milliseconds), which would stall the requests of the clients already asking.
    https = [httpx.AsyncClient(base_url=url, timeout=60, trust_env=False) for _ in range(clients)]
    began = time.perf_counter()
    until = began + seconds
    await asyncio.gather(
        *(
            client(http, bodies, random.Random(seed * 1000 + n), until, run)
            for n, http in enumerate(https)
        )
    )
    run.seconds = time.perf_counter() - began
    for http in https:
        await http.aclose()
    return run


def warm_up(url: str, bodies: list, per_card: int) -> float:
    """Ask one hint from each card's start, one at a time; the seconds it took."""
    began = time.perf_counter()
    with httpx.Client(base_url=url, timeout=120, trust_env=False) as http:
        for body in bodies[::per_card]:
            http.post("/api/hint", json={"board": body["board"]}).raise_for_status()
    return time.perf_counter() - began


COLUMNS = (  # (heading, key, format)
    ("requests", "requests", ",d"),
    ("req/s", "req_per_s", ".1f"),
    ("p50 ms", "p50_ms", ".1f"),
    ("p90 ms", "p90_ms", ".1f"),
    ("p99 ms", "p99_ms", ".1f"),
    ("max ms", "max_ms", ".1f"),
    ("errors", "errors", ",d"),
    ("server cpu s", "server_cpu_s", ".1f"),
    ("client cpu s", "client_cpu_s", ".1f"),
    ("warm-up s", "warm_up_s", ".2f"),
)


def row(name: str, figures: dict) -> str:
    cells = [f"{name:>6}"]
    for heading, key, form in COLUMNS:
        value = figures.get(key)
        text = "-" if value is None else format(int(value) if "d" in form else value, form)
        cells.append(f"{text:>{max(8, len(heading))}}")
    return " ".join(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--per-card", type=int, default=50, help="positions made per card")
    parser.add_argument("--max-moves", type=int, default=30, help="longest random walk")
    parser.add_argument("--cold", action="store_true", help="no warm-up: time the first hints")
    parser.add_argument(
        "--server",
        default=f"{sys.executable} -m rhasp serve --host {HOST} --port 0",
        help="the server's command, for comparisons: it listens "
        "on 127.0.0.1 and prints its address as rhasp serve does",
    )
    args = parser.parse_args()
    bodies = positions(args.seed, args.per_card, args.max_moves)
    print(
        f"{len(bodies):,} positions ({args.per_card} a card, walks of 0 to {args.max_moves} "
        f"moves, seed {args.seed}); {args.clients} clients for {args.seconds:g} s a run, "
        f"{os.cpu_count()} cores shared by the server and the clients"
    )
    print(" ".join([f"{'run':>6}", *(f"{h:>{max(8, len(h))}}" for h, _, _ in COLUMNS)]))
    results = []
    for number in range(1, args.runs + 1):
        server = Server(shlex.split(args.server))
        try:
            warmed = None if args.cold else warm_up(server.url, bodies, args.per_card)
            cpu_before, own_before = server.cpu_seconds(), time.process_time()
            run = asyncio.run(
                load(server.url, bodies, args.clients, args.seconds, args.seed + number)
            )
            cpu_after = server.cpu_seconds()
            run.client_cpu = time.process_time() - own_before
            if cpu_before is not None and cpu_after is not None:
                run.server_cpu = cpu_after - cpu_before
            run.warm_up = warmed
        finally:
            server.stop()
        figures = run.figures() | {"error_kinds": run.errors}
        results.append(figures)
        print(row(str(number), figures), flush=True)
        if run.errors:
            print(f"  errors: {run.errors}; the server's last lines:", *server.log, sep="\n  ")
    median = {
        key: statistics.median(r[key] for r in results)
        for key in results[0]
        if key != "error_kinds" and all(r[key] is not None for r in results)
    }
    print(row("median", median))
    met = median.get("p99_ms", math.inf) < 100 and median["errors"] == 0
    print(f"target (p99 under 100 ms, zero errors): {'met' if met else 'missed'}")
    print(
        json.dumps(
            {
                "bench": "serve_load",
                "python": platform.python_version(),
                "cores": os.cpu_count(),
                "server": args.server,
                "clients": args.clients,
                "seconds": args.seconds,
                "seed": args.seed,
                "positions": len(bodies),
                "runs": results,
                "median": median,
                "target_met": met,
            }
        )
    )


if __name__ == "__main__":
    main()
