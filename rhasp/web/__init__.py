"""``rhasp serve``: a local web page to play a puzzle, get a hint, watch an optimal plan and
its proof, and see why a puzzle is hard.

The server (:mod:`.server`) is a thin FastAPI layer over :mod:`rhasp.api`, its only way in; the page
(``static/``) is plain HTML, CSS and JavaScript with the board drawn in SVG, no build step.
FastAPI and uvicorn are the ``web`` extra: ``pip install '.[web]'`` in a checkout.
"""
