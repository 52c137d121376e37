"""``rhasp serve`` as rhasp/cli.py runs it, with one change: the listening socket is made with
``socket.IPPROTO_TCP`` as its protocol, so that asyncio sets TCP_NODELAY on every connection
it accepts (it does so only for sockets whose ``proto`` says TCP; ``socket.socket(family,
SOCK_STREAM)`` says 0). Without it, an answer on a kept-alive connection waits for the
client's delayed acknowledgement before its body is sent: 40 ms more a request.

For bench/serve_load.py, until cli.py's ``listen`` makes the same change::

    python bench/serve_load.py --server "python bench/experiments/serve_nodelay.py"
"""

from __future__ import annotations

import socket
import sys

import uvicorn

from rhasp.web.server import Limits, create_app

listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listening.bind(("127.0.0.1", 0))
config = uvicorn.Config(create_app(Limits(states=2_000_000, seconds=10.0)), log_level="warning")
print(f"rhasp serve: http://127.0.0.1:{listening.getsockname()[1]}/ (Ctrl-C stops)",
      file=sys.stderr, flush=True)  # fmt: skip
uvicorn.Server(config).run(sockets=[listening])
