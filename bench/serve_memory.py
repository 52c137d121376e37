"""The memory ``rhasp serve`` keeps after bursts of large-board requests (issue 53).

Starts ``python -m rhasp serve --host 127.0.0.1 --port 0`` (the command a user runs, or
``--server CMD``), waits until it answers, asks one small solve (card 1) so that the
compiled core and the page's caches are loaded, and reads the server's resident set
(``VmRSS`` in ``/proc/PID/status``): its idle level. Then, ``--bursts`` times, sends
``--clients`` concurrent ``POST /api/<endpoint>`` requests for ``puzzles/large/left12.txt``
(a 12×12 board whose searches run to the server's state or time limit), samples the
resident set every 50 ms while they run (the peak), and reads it again ``--settle``
seconds after the last answer. Only the loopback address is used; every request is bounded
by the server's own limits (``--time-limit``, default 10 s) and by the client's timeout.

    python bench/serve_memory.py [--clients 30] [--bursts 3] [--endpoint solve,hint]
                                 [--extra '{"engine": "bfs"}'] [--warm] [--settle 2]
                                 [--runs 1] [--off slots,threshold] [--server CMD]

``--warm`` measures the idle level after one request of each endpoint, one at a time (the
compiled code for 12×12 boards loaded); ``--off`` starts the server with its search slots
or its fixed mmap threshold switched off (``rhasp/web/slots.py``), for the figures before.

Prints per burst the idle, peak and after figures in MB and the answers' status codes; then
one JSON line. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))  # serve_load, beside this script

from serve_load import HOST, Server

ROOT = Path(__file__).resolve().parent.parent
LEFT12 = (ROOT / "puzzles" / "large" / "left12.txt").read_text()
CARD1 = (ROOT / "puzzles" / "original" / "card01.txt").read_text()


def rss_mb(pid: int) -> float:
    """The process's resident set, in MB (10**6 bytes), from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024 / 1e6
    raise RuntimeError("no VmRSS")


async def burst(url: str, endpoints: list[str], clients: int, extra: dict) -> Counter:
    async def one(k: int) -> str:
        endpoint = endpoints[k % len(endpoints)]
        async with httpx.AsyncClient(trust_env=False, timeout=300) as client:
            try:
                answer = await client.post(f"{url}/api/{endpoint}", json={"board": LEFT12} | extra)
            except httpx.HTTPError as error:
                return f"{endpoint} {type(error).__name__}"
            return f"{endpoint} {answer.status_code}"

    return Counter(await asyncio.gather(*(one(k) for k in range(clients))))


def sampled(pid: int, work) -> tuple[object, float]:
    """``work()``'s result and the largest resident set seen while it ran (every 50 ms)."""
    peak = [rss_mb(pid)]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.05):
            try:
                peak.append(rss_mb(pid))
            except OSError:
                return

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    try:
        return work(), max(peak)
    finally:
        done.set()
        watcher.join()


#: ``rhasp serve`` with what bounds its memory switched off (``--off``), for the figures
#: before: the search slots made as many as the thread pool's threads and more, glibc's
#: moving mmap threshold left alone.
WITHOUT = """
import dataclasses, sys
from rhasp.web import server, slots
off = sys.argv[1].split(",")
if "threshold" in off:
    server.unmap_large_blocks = lambda: False
if "slots" in off:
    made = slots.SearchSlots.__init__
    slots.SearchSlots.__init__ = lambda self, limits: made(
        self, dataclasses.replace(limits, searches=1000)
    )
from rhasp.__main__ import main
sys.argv = ["rhasp", "serve", *sys.argv[2:]]
sys.exit(main())
"""


def run(args: argparse.Namespace) -> list[dict]:
    if args.server:
        command = shlex.split(args.server)
    elif args.off:
        command = [sys.executable, "-c", WITHOUT, args.off]
    else:
        command = [sys.executable, "-m", "rhasp", "serve"]
    command += ["--host", HOST, "--port", "0"]
    server = Server(command)
    try:
        pid = server.process.pid
        deadline = time.monotonic() + 120
        while True:  # answering, the compiled core loaded, card 1 solved once
            try:
                if httpx.post(
                    f"{server.url}/api/solve", json={"board": CARD1}, timeout=60, trust_env=False
                ).is_success:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.process.poll() is not None:
                raise SystemExit(f"rhasp serve never answered: {list(server.log)}")
            time.sleep(0.2)
        endpoints = args.endpoint.split(",")
        extra = json.loads(args.extra)
        time.sleep(args.settle)
        started = rss_mb(pid)
        if args.warm:  # one request of each endpoint, one at a time: the 12×12 code loaded
            for endpoint in endpoints:
                asyncio.run(burst(server.url, [endpoint], 1, extra))
            time.sleep(args.settle)
        idle = rss_mb(pid)
        print(f"started: {started:.0f} MB; idle: {idle:.0f} MB", flush=True)
        rows = []
        for number in range(1, args.bursts + 1):
            began = time.monotonic()
            codes, peak = sampled(
                pid, lambda: asyncio.run(burst(server.url, endpoints, args.clients, extra))
            )
            seconds = time.monotonic() - began
            time.sleep(args.settle)
            after = rss_mb(pid)
            rows.append(
                {
                    "burst": number,
                    "idle_mb": round(idle, 1),
                    "peak_mb": round(peak, 1),
                    "after_mb": round(after, 1),
                    "kept_mb": round(after - idle, 1),
                    "seconds": round(seconds, 2),
                    "answers": dict(codes),
                }
            )
            print(
                f"burst {number}: idle {idle:.0f} MB, peak {peak:.0f} MB, after {after:.0f} MB "
                f"(+{after - idle:.0f}), {seconds:.1f} s, {dict(codes)}",
                flush=True,
            )
        return rows
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--bursts", type=int, default=3)
    parser.add_argument("--endpoint", default="solve", help="solve, hint, analyze, check: a list")
    parser.add_argument("--extra", default="{}", help='more fields, e.g. {"engine": "bfs"}')
    parser.add_argument("--warm", action="store_true", help="idle after one request of each")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds before reading after")
    parser.add_argument("--runs", type=int, default=1, help="servers started, one after another")
    parser.add_argument("--server", help="the command that starts the server (default: rhasp's)")
    parser.add_argument("--off", help="switch off: slots, threshold, or both (slots,threshold)")
    args = parser.parse_args()
    rows = [row | {"run": k} for k in range(1, args.runs + 1) for row in run(args)]
    summary = {
        key: statistics.median(row[key] for row in rows)
        for key in ("idle_mb", "peak_mb", "after_mb", "kept_mb", "seconds")
    }
    print(f"medians over {len(rows)} bursts: {summary}")
    print(
        json.dumps(
            {"clients": args.clients, "endpoint": args.endpoint, "bursts": rows, "median": summary}
        )
    )


if __name__ == "__main__":
    main()
