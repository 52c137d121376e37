"""``rhasp serve``: a local web page to play a puzzle, get a hint, watch an optimal plan and
its proof, and see why a puzzle is hard.

The server is a thin FastAPI layer over :mod:`rhasp.api`, its only way in: the app built and
served by :mod:`.server`, its endpoints in :mod:`.routes` (``docs/design.md``, "Layout",
names each module). The page (``assets/``) is plain HTML, CSS and JavaScript modules with the
board drawn in SVG, no build step; it shows an answer's words as the server sends them.
FastAPI and uvicorn are the ``web`` extra: ``pip install '.[web]'`` in a checkout.
"""
