"""The page in a real browser: Debian's headless Chromium, driven by Playwright.

A person's session: pick card 1, play an optimal plan by dragging the vehicles with the mouse,
see the win message; ask for a hint and check it against a breadth-first search from that
position; paste a bad board and see the one line the CLI gives. The plan played and the hint's
check come from the BFS engine, independent of the page and of the hint's cluster look-up.

Set RHASP_SCREENSHOT=FILE to keep a screenshot of the page (the README's picture).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

import rhasp
from rhasp.errors import InputError
from rhasp.model import Move
from tests.fuzzing import random_puzzle

views = pytest.importorskip("rhasp.web.views", reason="the web extra is not installed")
link_text = views.link_text

ROOT = Path(__file__).resolve().parents[2]
CARD01 = ROOT / "puzzles" / "original" / "card01.txt"
CARD1_LINE = "AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR."  # the deck's line 1
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(  # in CI, which installs chromium, a missing one fails
    CHROMIUM is None and not os.environ.get("CI"),
    reason="no chromium executable (CI installs Debian's chromium)",
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The complete 4×4 puzzle database, for the page's picks by moves."""
    path = tmp_path_factory.mktemp("db") / "rush4.txt"
    path.write_text("".join(f"{line}\n" for line in rhasp.enumerate(4)))
    return path


#: How long the tests wait for a generated puzzle (seconds): the servers' core runs
#: uncompiled (:func:`serve`), on a loaded machine for seconds.
GENERATE_WAIT = 60


@pytest.fixture(scope="module")
def server(database: Path) -> Iterator[str]:
    """``rhasp serve`` as a person starts it, on a free loopback port, with a database."""
    yield from serve("--database", str(database))


@pytest.fixture(scope="module")
def hurried_server() -> Iterator[str]:
    """``rhasp serve`` with a request time limit that an ASP proof by slides soon meets."""
    yield from serve("--time-limit", "1")


#: How long the tests of :func:`small_server` wait for its answers (seconds), and the time
#: limit it is given: its tests want its state limit met, and with an empty cache for the
#: compiled code on a loaded machine (CI's first run) a 12×12 search runs uncompiled for
#: tens of seconds first, where the default 10 s a request would be met instead.
SMALL_SERVER_WAIT = 300


@pytest.fixture(scope="module")
def small_server() -> Iterator[str]:
    """``rhasp serve`` with a state limit that a 12×12 board's cluster soon passes."""
    yield from serve("--max-states", "125000", "--time-limit", str(2 * SMALL_SERVER_WAIT))


def serve(*options: str) -> Iterator[str]:
    """The server's address once it prints it, as a person waits for it (its log goes to a
    file: a pipe nobody reads would fill and hold the server up). Its core runs uncompiled:
    a server asks at its start for the code of every size its page generates, some twenty
    compiles the page's tests do not need (``tests/conftest.py``, ``uncompiled``; a server
    on an empty cache: tests/search/test_cache.py)."""
    port = free_port()
    with tempfile.TemporaryFile("w+") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "rhasp", "serve", "--port", str(port), *options],
            stdout=subprocess.DEVNULL,
            stderr=log,
            env={**os.environ, "RHASP_JIT": "never"},
        )
        deadline = time.monotonic() + 60
        while True:
            log.seek(0)
            said = log.read()
            if "rhasp serve: http" in said:
                break
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"rhasp serve did not start: {said}")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/"
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as playwright:
        assert CHROMIUM, "no chromium executable: apt-get install chromium"
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: object, server: str) -> Iterator[object]:
    yield from opened_page(browser, server)


def opened_page(browser: object, address: str, **device: object) -> Iterator[object]:
    context = browser.new_context(**({"viewport": {"width": 1100, "height": 900}} | device))
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(address)
    opened.wait_for_selector("body[data-ready=true]")
    yield opened
    context.close()
    assert not errors, f"the page's script failed: {errors}"


def module(page: object, name: str, body: str, arg: object = None) -> object:
    """``body`` evaluated in the page with ``m``, the page's module ``name`` (the same one its
    script runs: a module is loaded once a page), and ``arg``."""
    script = f"async (arg) => {{ const m = await import('/assets/{name}'); {body} }}"
    return page.evaluate(script, arg)


def solution_words(response: object) -> str:
    """The solution's words as the server sent them: the JSON's ``text``, or that of the
    streamed ``solution`` event."""
    if "event-stream" not in response.headers.get("content-type", ""):
        return response.json()["text"]
    (event,) = [part for part in response.text().split("\n\n") if "event: solution" in part]
    return json.loads(event.split("data: ", 1)[1])["text"]


def solved_on_the_page(page: object, seconds: float = 60) -> str:
    """Click Solve; the solution's words the server sent, within ``seconds``."""
    with page.expect_response("**/api/solve", timeout=seconds * 1000) as answer:
        page.click("#solve-button")
    return solution_words(answer.value)


def drag(page: object, move: Move) -> None:
    """Drag a vehicle ``move.delta`` cells along its line with the mouse, as a person does."""
    vehicle = page.locator(f'#board .vehicle[data-label="{move.label}"]')
    body = vehicle.locator("rect.body").bounding_box()
    board = page.locator("#board")
    scale = board.bounding_box()["width"] / float(board.get_attribute("viewBox").split()[2])
    cell = 60 * scale  # the page draws 60 units a cell, as rhasp render does
    x, y = body["x"] + body["width"] / 2, body["y"] + body["height"] / 2
    horizontal = body["width"] > body["height"]
    to_x, to_y = (x + move.delta * cell, y) if horizontal else (x, y + move.delta * cell)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(to_x, to_y, steps=8)
    page.mouse.up()


def test_playing_card_1_by_dragging_wins_in_8_moves(page: object) -> None:
    page.select_option("#card", "card02")  # pick another card, then card 1 again
    page.wait_for_function("document.getElementById('title').textContent === 'Card 2 · beginner'")
    page.select_option("#card", "card01")
    page.wait_for_function("document.getElementById('title').textContent === 'Card 1 · beginner'")
    plan = rhasp.solve(rhasp.read(CARD01), engine="bfs").plan
    assert len(plan) == 8  # card 1 takes 8 moves (the card's back, counted by hand)
    for number, move in enumerate(plan, 1):
        drag(page, move)
        counter = page.text_content("#counter")
        assert counter.startswith(f"{number} move"), (move, counter)
    page.wait_for_function("document.getElementById('status').textContent.includes('minimum')")
    message = page.text_content("#status")
    assert message.startswith("Solved in 8 moves; the minimum is 8 (proven by BFS)")
    assert "moves=" in page.url  # the link carries the position


def test_a_puzzle_of_the_database_is_picked_by_its_moves(page: object, database: Path) -> None:
    lines = database.read_text().splitlines()
    page.wait_for_selector("#database:not([hidden])")
    hardest = max(int(line.split()[0]) for line in lines)
    assert page.input_value("#database-moves") == str(hardest)  # the hardest offered first
    page.select_option("#database-moves", "6")
    page.click("#pick-database")
    page.wait_for_function("document.getElementById('status').textContent.includes('line')")
    found = re.search(r"with 6 moves \(line (\d+) of rush4.txt", page.text_content("#status"))
    assert found, page.text_content("#status")
    moves, board, _ = lines[int(found[1]) - 1].split()
    assert moves == "06"
    cells = {
        vehicle.get_attribute("data-label")
        for vehicle in page.query_selector_all("#board .vehicle")
    }
    assert cells == set(board) - {"o", "x"}


def test_the_keyboard_plays_and_undo_redo_reset_follow(page: object) -> None:
    page.click('#board .vehicle[data-label="C"]')  # select C, then three cells left
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    assert page.text_content("#counter") == "1 move · 3 slides"  # one move, as one drag
    page.keyboard.press("ArrowUp")  # C is horizontal: nothing happens
    page.keyboard.press("Tab")  # the next vehicle in the board's order: O
    page.keyboard.press("ArrowDown")
    assert page.text_content("#counter") == "2 moves · 4 slides"
    assert "moves=CL3+OD1" in page.url
    page.click("#undo")
    assert page.text_content("#counter") == "1 move · 3 slides"
    page.click("#redo")
    assert page.text_content("#counter") == "2 moves · 4 slides"
    page.reload()  # the link brings the same position back
    page.wait_for_selector("body[data-ready=true]")
    assert page.text_content("#counter") == "2 moves · 4 slides"
    page.click("#reset")
    assert page.text_content("#counter") == "0 moves · 0 slides"


def test_a_hint_starts_an_optimal_plan(page: object) -> None:
    puzzle = rhasp.read(CARD01)
    opening = (Move("C", -3), Move("A", 1))  # two legal moves, the second not optimal
    for move in opening:
        drag(page, move)
    assert page.text_content("#counter").startswith("2 moves")
    page.click("#hint")
    page.wait_for_selector("#board .vehicle.hinted")
    hinted = page.get_attribute("#board .vehicle.hinted", "data-hint")
    message = page.text_content("#status")
    here = rhasp.play(puzzle, opening)
    fewest = rhasp.solve(here, engine="bfs").moves
    assert f"You are {fewest} moves from the exit" in message
    after = rhasp.play(here, hinted)
    assert rhasp.solve(after, engine="bfs").moves == fewest - 1
    assert page.locator("#board .ghost").count() == 1  # where the hinted vehicle goes


def test_a_bad_board_shows_the_clis_one_line_error(page: object) -> None:
    bad = "AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR"  # 35 cells: one short
    page.click("#paste-box summary")
    page.fill("#paste", bad)
    page.click("#load")
    page.wait_for_function("document.getElementById('input-error').textContent !== ''")
    shown = page.text_content("#input-error")
    with pytest.raises(InputError) as error:
        rhasp.parse(bad)
    assert shown == str(error.value)
    cli = subprocess.run(
        [sys.executable, "-m", "rhasp", "solve", "-"], input=bad, capture_output=True, text=True
    )
    assert cli.returncode == 2
    assert cli.stderr.strip().split(": ", 2)[2] == shown.split(": ", 1)[1]  # same words
    assert page.text_content("#title") == "Card 1 · beginner"  # the board in play is kept


def test_a_pasted_spaced_lowercase_grid_loads_and_says_how_it_was_read(page: object) -> None:
    # Issue 39, item 5: cells between spaces (here in lowercase, the card convention: x the
    # target, o a truck) load as the board they draw, and the page says what it inferred.
    rows = [
        "o . . a . .",
        "o . . a b b",
        "o x x c . .",
        ". . p c d d",
        ". . p e e f",
        ". . p . . f",
    ]
    page.click("#paste-box summary")
    page.fill("#paste", "\n".join(rows))
    page.click("#load")
    page.wait_for_function("document.getElementById('title').textContent === 'Your board'")
    assert page.text_content("#input-error") == ""
    read = page.text_content("#read")
    assert "target X, leaving right of row 3" in read and "capitals" in read
    assert page.is_visible("#read")
    labels = {v.label for v in rhasp.parse("\n".join(rows).replace(" ", "")).board.vehicles}
    shown = page.eval_on_selector_all("#board .vehicle", "gs => gs.map(g => g.dataset.label)")
    assert set(shown) == labels and "O" in labels  # the truck o kept


def test_the_asp_proof_streams_and_the_plan_animates_by_moves_and_slides(page: object) -> None:
    puzzle = rhasp.read(CARD01)
    opening = (Move("C", -3),)
    drag(page, opening[0])
    here = rhasp.play(puzzle, opening)
    fewest = rhasp.solve(here, engine="bfs")  # the independent answer
    page.click("#hint")
    page.wait_for_selector("#board .vehicle.hinted")
    page.select_option("#engine", "asp")
    words = solved_on_the_page(page)
    page.wait_for_selector("#proof li.sat")
    horizons = page.locator("#proof li").all_text_contents()
    n = fewest.moves  # the proof: a plan of n moves, and none of n - 1 or fewer
    assert horizons[-1] == f"optimal: {n} moves (a plan of {n}, none of {n - 1} or fewer)"
    assert f"horizon {n - 1}: no plan of {n - 1} moves or fewer (proven unsatisfiable)" in horizons
    assert any(re.fullmatch(rf"horizon \d+: a plan of {n} moves", text) for text in horizons)
    for text in horizons[:-1]:  # every horizon solved: a plan no shorter, or none that short
        h, rest = re.fullmatch(r"horizon (\d+): (.*)", text).groups()
        if re.fullmatch(rf"no plan of {h} moves?( or fewer)? \(proven unsatisfiable\)", rest):
            assert int(h) < n
        else:
            assert n <= int(re.fullmatch(r"a plan of (\d+) moves?", rest)[1]) <= int(h)
    assert page.text_content("#solve-summary") == words  # the server's words, as they are
    assert f" · moves {n} · " in words
    atoms = page.text_content("#atoms").split("\n")
    assert len(atoms) == fewest.moves and all(atom.startswith("move(") for atom in atoms)
    shown = [text.split(". ")[1] for text in page.locator("#plan li").all_text_contents()]
    played = rhasp.play(here, " ".join(shown))
    assert played.solved  # the plan shown solves the position, in the fewest moves
    assert page.text_content("#frame") == f"move 0 of {fewest.moves}"
    page.select_option("#unit", "slides")
    slides = sum(abs(Move(text[0], int(text[2:])).delta) for text in shown)
    assert page.text_content("#frame") == f"slide 0 of {slides}"
    page.click("#forward")
    assert page.text_content("#frame") == f"slide 1 of {slides}"
    page.click("#analyse-button")
    page.wait_for_selector("#profile:not([hidden])")
    figures = page.text_content("#figures")
    assert f"fewest moves{fewest.moves} (proven by BFS)" in figures
    bars = page.locator("#profile rect.bar").count()
    assert bars == len(rhasp.analyze(here).profile)
    shot = os.environ.get("RHASP_SCREENSHOT")
    if shot:  # the README's picture: a hint, the proof, the plan and the chart
        page.click("#leave")
        page.click("#hint")
        page.wait_for_selector("#board .vehicle.hinted")
        page.screenshot(path=shot, full_page=True)


HARDEST = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"  # the hardest 6x6 puzzle: 51 moves, 81 slides


def test_a_stopped_asp_proof_keeps_its_horizons_and_offers_the_bfs_answer(
    browser: object, hurried_server: str
) -> None:
    expected = rhasp.solve(rhasp.read(HARDEST), "slides", engine="bfs")  # the independent answer
    for page in opened_page(browser, f"{hurried_server}?board={HARDEST}"):
        page.select_option("#engine", "asp")
        page.select_option("#objective", "slides")
        words = solved_on_the_page(page)
        page.wait_for_selector("#show-bfs-plan", timeout=60_000)
        horizons = page.locator("#proof li").all_text_contents()
        assert horizons and all("(proven unsatisfiable)" in h for h in horizons[:-1])
        stopped = r"horizon \d+: stopped \(timed out at horizon \d+(, with no plan .*)?\)"
        assert re.fullmatch(stopped, horizons[-1])
        summary = page.text_content("#solve-summary")
        assert summary.startswith("The ASP proof stopped: timed out at horizon ")
        assert words in summary and f" · slides {expected.slides} (in " in words
        assert page.locator("#plan li").count() == 0  # nothing shown before the click
        page.click("#show-bfs-plan")
        shown = [text.split(". ")[1] for text in page.locator("#plan li").all_text_contents()]
        played = rhasp.play(rhasp.read(HARDEST), " ".join(shown))
        slides = sum(abs(Move(text[0], int(text[2:])).delta) for text in shown)
        assert played.solved and slides == expected.slides
        assert page.text_content("#solve-summary") == words


# --- results tied to their position, and the rough edges a newcomer met ------------------------


def wait_text(page: object, selector: str, words: str, seconds: float = 30) -> str:
    """The text of ``selector`` once it holds ``words``, within ``seconds``."""
    page.wait_for_function(
        "([s, w]) => document.querySelector(s).textContent.includes(w)",
        arg=[selector, words],
        timeout=seconds * 1000,
    )
    return page.text_content(selector)


def test_results_say_which_position_they_describe(page: object) -> None:
    page.click("#analyse-button")
    wait_text(page, "#figures", "fewest moves")
    words = solved_on_the_page(page)
    wait_text(page, "#solve-summary", words)
    page.click("#leave")
    assert not page.is_visible("#analyse .for-position")  # asked from this position
    drag(page, Move("C", -3))
    note = page.text_content("#analyse .for-position")
    assert page.is_visible("#analyse .for-position") and "For the start position" in note
    assert "For the start position" in page.text_content("#solve .for-position")
    page.click("#undo")  # back where they were asked: they describe the board again
    assert not page.is_visible("#analyse .for-position")
    assert not page.is_visible("#solve .for-position")


def test_panels_say_what_they_do_until_used(page: object) -> None:
    intros = page.locator("aside .intro")
    assert intros.count() == 2 and all(intros.nth(n).is_visible() for n in range(2))
    page.click("#analyse-button")
    wait_text(page, "#figures", "fewest moves")
    assert not page.is_visible("#analyse .intro") and page.is_visible("#solve .intro")


def test_a_hint_leaves_with_its_outline_when_a_plan_is_shown(page: object) -> None:
    page.click("#hint")
    page.wait_for_selector("#board .vehicle.hinted")
    assert page.text_content("#status").startswith("Hint: ")
    page.click("#solve-button")
    page.wait_for_selector("#animation:not([hidden])")
    assert page.locator("#board .hinted, #board .ghost").count() == 0
    assert "Hint" not in page.text_content("#status")
    page.click("#forward")  # the first move's vehicle is ringed, as in rhasp render
    first = page.text_content("#plan li.current").split(". ")[1]
    assert page.get_attribute("#board .vehicle.moving", "data-label") == first[0]
    assert page.locator("#board .vehicle.moving").count() == 1


def test_an_unsolvable_puzzle_says_so_and_a_broken_link_falls_back_in_words(
    browser: object, server: str
) -> None:
    walled = "......\n......\n.XX#..\n......\n..A...\n..A..."  # X walled in: no plan
    for page in opened_page(browser, f"{server}?{urlencode({'board': walled})}"):
        page.click("#hint")
        message = wait_text(page, "#status", "no solution")
        assert message.startswith("This puzzle has no solution") and "undo" not in message
    for page in opened_page(browser, f"{server}?board=garbage"):
        error = page.text_content("#input-error")
        with pytest.raises(InputError) as expected:
            rhasp.parse("garbage")
        assert error == f"The link's board: {expected.value}; card 1 is shown instead."
        assert page.text_content("#title") == "Card 1 · beginner"
    card1 = urlencode({"board": CARD1_LINE, "moves": "CL3 XR1"})
    for page in opened_page(browser, f"{server}?{card1}"):
        error = page.text_content("#input-error")  # X is blocked by Q: the server says so
        assert error.startswith("The link's moves: move 2: X is blocked by Q")
        assert page.text_content("#counter") == "0 moves · 0 slides"


def test_an_analysis_past_its_limit_shows_the_verdict_static_analysis_proved(
    browser: object, small_server: str
) -> None:
    # walled12: target A faces a wall at the end of its row (row 6, column 12, read off the
    # file); rhasp analyze says so on the command line, and the page says the same.
    walled = (ROOT / "puzzles" / "large" / "walled12.txt").read_text()
    for page in opened_page(browser, f"{small_server}?{urlencode({'board': walled})}"):
        page.click("#analyse-button")
        figures = wait_text(page, "#figures", "static analysis", SMALL_SERVER_WAIT)
        assert "no plan (proven by static analysis: row 6, column 12 is occupied" in figures
        assert "the cluster analysis stopped: state limit reached" in figures


def test_a_puzzle_static_analysis_proves_unsolvable_shows_the_proof_rhasp_solve_gives(
    browser: object, server: str
) -> None:
    either_or = ROOT / "puzzles" / "examples" / "either-or.txt"
    board = "\n".join(row for row in either_or.read_text().splitlines() if not row.startswith(";"))
    proof = rhasp.solve(rhasp.read(either_or)).static  # what rhasp solve prints
    assert "never reaches row 3, column 5" in proof  # by hand: see the file's comment
    for page in opened_page(browser, f"{server}?{urlencode({'board': board})}"):
        words = solved_on_the_page(page)
        assert proof in words
        assert wait_text(page, "#solve-summary", proof) == words


def seeded(page: object, seed: int) -> None:
    """The page's requests for a new puzzle sent with ``seed``: the page sends none (a new
    puzzle each time), and on the uncompiled core a random 6×6 seed took from 0.05 s to
    7.4 s on a loaded machine (2026-12-01), near the server's 10 s a request."""

    def with_seed(route: object) -> None:
        body = json.loads(route.request.post_data)
        route.continue_(post_data=json.dumps(body | {"seed": seed}))

    page.route("**/api/generate", with_seed)


def new_puzzle_title(page: object) -> str:
    """The page's title once a generated puzzle is loaded; what the page said instead if none
    comes within :data:`GENERATE_WAIT`."""
    try:
        return wait_text(page, "#title", "New puzzle", seconds=GENERATE_WAIT)
    except sync_api.TimeoutError:
        said = (page.text_content("#status"), page.text_content("#input-error"))
        pytest.fail(f"no new puzzle; the page says: {said!r}")


def test_cards_generated_puzzles_and_the_field_say_what_they_are(page: object) -> None:
    options = page.locator("#card option").all_text_contents()[1:]
    assert options[0] == "1 · beginner · 8 moves" and options[39] == "40 · expert · 51 moves"
    page.fill("#min-moves", "60")
    page.click("#generate")
    assert page.text_content("#input-error").startswith(
        "A new puzzle takes a whole number of moves from 1 to 40"
    )
    seeded(page, 3)  # 6×6: 6 moves, 0.05 s uncompiled here
    page.fill("#min-moves", "5")
    page.click("#generate")
    title = new_puzzle_title(page)
    moves = int(re.fullmatch(r"New puzzle · (\d+) moves", title)[1])
    board = module(page, "state.js", "return m.game.start;")
    assert moves >= 5 and rhasp.solve(rhasp.parse(board), engine="bfs").moves == moves


def test_generate_makes_a_larger_board_and_says_how_deep_each_size_typically_goes(
    browser: object, small_server: str
) -> None:
    # The server scores 8×8 boards and walks the kept one's cluster for its hardest state.
    # Uncompiled, under the default limits, the walk takes the request's 10 s and A* proves
    # the kept board after (9.5 s idle; in CI, loaded, once no board at all within them):
    # the small server's state limit ends the walk sooner (seed 2: 2.3 s idle, 2026-12-01).
    for page in opened_page(browser, small_server):
        assert page.text_content("#generate-typical").startswith("(6×6: typically up to ")
        page.select_option("#generate-size", "8")
        assert page.text_content("#generate-typical").startswith("(8×8: typically up to ")
        seeded(page, 2)
        page.fill("#min-moves", "2")
        page.click("#generate")
        title = new_puzzle_title(page)
        moves = int(re.fullmatch(r"New puzzle · (\d+) moves", title)[1])
        puzzle = rhasp.parse(module(page, "state.js", "return m.game.start;"))
        assert puzzle.board.width == puzzle.board.height == 8
        assert moves >= 2 and rhasp.solve(puzzle, engine="bfs").moves == moves
        assert "proven by" in page.text_content("#status")


def test_the_profile_names_its_axes_and_its_red_bar(page: object) -> None:
    page.click("#analyse-button")
    page.wait_for_selector("#profile:not([hidden])")
    texts = page.locator("#profile text").all_text_contents()
    assert "states" in texts and "moves from the exit" in texts
    assert "this position (8 moves)" in texts  # card 1's start: 8 moves, by hand


def test_the_pages_move_rules_agree_with_the_model_on_random_boards(page: object) -> None:
    # The only rules the page keeps are a drag's: how far a vehicle slides, and whether a
    # target leaves. Compared with the Python model's moves on boards of 4×4 to 8×8 with walls,
    # targets leaving by any side, and two or three targets.
    rng, checked = random.Random(22), 0
    while checked < 40:
        puzzle = random_puzzle(rng)
        board = puzzle.board
        if not (4 <= board.width <= 8 and 4 <= board.height <= 8) or puzzle.solved:
            continue
        text = link_text(puzzle)
        assert module(page, "pick.js", "return m.load(arg);", text)
        start = puzzle.start
        for i, vehicle in enumerate(board.vehicles):
            if start[i] is None:
                continue
            ends = {
                start[i] + move.delta: after[i] is None
                for move, after in board.successors(start)
                if move.label == vehicle.label
            }
            ends.setdefault(start[i], False)
            low, high = min(ends), max(ends)
            found = module(
                page,
                "rules.js",
                "const at = (await import('/assets/state.js')).game.at;"
                " const v = m.vehicle(arg); const [lo, hi] = m.reach(v, at);"
                " return [lo, hi, m.leaves(v, lo), m.leaves(v, hi), at[arg]];",
                vehicle.label,
            )
            assert found == [low, high, ends[low], ends[high], start[i]], (text, vehicle)
        checked += 1


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}


def in_view(page: object, selector: str) -> bool:
    """Whether the element is wholly inside the visible part of the page."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= size["width"]
    )


def test_on_a_phone_the_board_and_play_are_both_in_view_while_a_plan_plays(browser, server):
    for page in opened_page(browser, server, **PHONE):
        page.click("#solve-button")
        page.wait_for_selector("#animation:not([hidden])")
        page.locator("#play-plan").scroll_into_view_if_needed()
        page.click("#play-plan")
        page.wait_for_timeout(300)
        assert page.text_content("#play-plan") == "Pause"
        assert in_view(page, "#board") and in_view(page, "#play-plan")
        page.click("#forward")  # still there once paused, and the steps work from it
        assert in_view(page, "#board") and in_view(page, "#forward")
        page.click("#leave")  # back to the game: the fixed bar goes with the plan
        assert not page.is_visible("#play-plan")


def test_the_help_speaks_of_fingers_on_a_touch_screen_and_of_keys_elsewhere(browser, server):
    for page in opened_page(browser, server, **PHONE):
        assert page.is_visible(".help .by-touch") and not page.is_visible(".help .by-keys")
        assert "finger" in page.inner_text(".help") and "arrow keys" not in page.inner_text(".help")
    for page in opened_page(browser, server, **LAPTOP):
        assert page.is_visible(".help .by-keys") and not page.is_visible(".help .by-touch")


def test_each_picker_keeps_its_button_beside_its_menu(browser, server):
    for device in (LAPTOP, PHONE):
        for page in opened_page(browser, server, **device):
            page.wait_for_selector("#database:not([hidden])")
            pick, menu = (
                page.locator(s).bounding_box() for s in ("#pick-database", "#database-moves")
            )
            if device is LAPTOP:  # one line: the button beside its menu
                assert abs(pick["y"] - menu["y"]) < menu["height"]
                assert pick["x"] > menu["x"] + menu["width"]
            pickers = [
                page.locator(s).bounding_box()["y"]
                for s in ("#card", "#min-moves", "#database-moves")
            ]
            assert pickers == sorted(pickers)  # the pickers in their order, one under another


# --- large boards: A* by default, limits in the page's words ----------------------------------

LEFT12 = ROOT / "puzzles" / "large" / "left12.txt"
# left12 by hand: target A leaves left past the vertical vehicles Q, O, R and L, each standing
# on its row: each must move and so must A, so every plan takes at least 5 moves.
LEFT12_MOVES = 5


def test_a_large_board_is_solved_by_astar_on_the_page(browser: object, server: str) -> None:
    board = LEFT12.read_text()
    for page in opened_page(browser, f"{server}?{urlencode({'board': board})}"):
        assert page.input_value("#engine") == "astar"  # the default past 6×6
        words = solved_on_the_page(page)
        assert wait_text(page, "#solve-summary", words) == words
        assert f" · moves {LEFT12_MOVES} · " in words
        shown = [text.split(". ")[1] for text in page.locator("#plan li").all_text_contents()]
        assert len(shown) == LEFT12_MOVES
        assert rhasp.play(rhasp.read(LEFT12), " ".join(shown)).solved


#: A crowded 12×12 board (bench/anytime.py's crowded-5, 44 vehicles) on which neither of
#: the anytime searches finds a plan within the server's 125,000 states (2026-11-29; the
#: estimate finds crowded-1's, once used here, in 498), so that past them a solve is a limit
#: with no plan at all (on left12, weighted A* finds one in 398 states).
CROWDED12 = """\
inn.RWWW...G
i..KRuI.qq.G
.rrKRuI.Ubb.
BBSK.u.cUZ..
eeSYDOmc.Z.l
AA.YDOmc...l
...YVVVHHH.l
..fPPtNjjhh.
.QfE.tNFFF..
kQ.E.MMM.ddd
kQ.ppp..gggT
LLJJJssCC..T
"""


def test_a_limit_on_the_page_is_said_in_the_pages_words(browser: object, small_server: str) -> None:
    board = CROWDED12
    for page in opened_page(browser, f"{small_server}?{urlencode({'board': board})}"):
        page.select_option("#engine", "bfs")  # BFS meets the server's 125,000 states
        page.click("#solve-button")
        summary = wait_text(page, "#solve-summary", "server allows", SMALL_SERVER_WAIT)
        assert summary.startswith("this position needs more states than the server allows: ")
        assert "state limit reached" in summary and "--" not in summary
        page.select_option("#card", "card01")  # a 6×6 board: the engine chosen by hand stays
        page.wait_for_function("document.getElementById('title').textContent.startsWith('Card 1')")
        assert page.input_value("#engine") == "bfs"


def test_a_plan_past_a_limit_is_shown_on_the_page_with_what_proves_it(
    browser: object, small_server: str
) -> None:
    # BFS stops at the server's 125,000 states, having found depth 4 whole: every plan takes
    # 5 moves or more; weighted A*'s plan takes 5 (left12's fewest), so the two prove it.
    board = LEFT12.read_text()
    for page in opened_page(browser, f"{small_server}?{urlencode({'board': board})}"):
        page.select_option("#engine", "bfs")
        words = solved_on_the_page(page, SMALL_SERVER_WAIT)
        assert wait_text(page, "#solve-summary", words) == words
        assert f" · moves {LEFT12_MOVES} · optimal: proven by bfs's lower bound, met by" in words
        shown = [text.split(". ")[1] for text in page.locator("#plan li").all_text_contents()]
        assert len(shown) == LEFT12_MOVES
        assert rhasp.play(rhasp.read(LEFT12), " ".join(shown)).solved


# --- the page's messages fit (issue 42, item 5) ---------------------------------------------


def comes_into_view(page: object, selector: str) -> bool:
    """Whether the element is wholly in view once the page has scrolled to it (smoothly: a
    second at most)."""
    for _ in range(20):
        if in_view(page, selector):
            return True
        page.wait_for_timeout(100)
    return in_view(page, selector)


def test_the_hint_win_and_error_messages_are_in_view_on_a_laptop_and_a_phone(browser, server):
    walled = "......\n......\n.XX#..\n......\n..A...\n..A..."  # X walled in: no plan
    for device in (LAPTOP, PHONE):
        for page in opened_page(browser, server, **device):
            page.click("#hint")
            wait_text(page, "#status", "Hint: ")
            assert comes_into_view(page, "#status"), (device, page.text_content("#status"))
            assert in_view(page, "#board .vehicle.hinted")  # and the hint's outline with it
            for move in rhasp.solve(rhasp.read(CARD01), engine="bfs").plan:
                drag(page, move)
            wait_text(page, "#status", "minimum")
            assert comes_into_view(page, "#status"), (device, page.text_content("#status"))
            assert in_view(page, "#counter") and in_view(page, "#undo")  # nothing else hidden
        for page in opened_page(browser, f"{server}?{urlencode({'board': walled})}", **device):
            page.click("#hint")
            wait_text(page, "#status", "no solution")
            assert comes_into_view(page, "#status"), (device, page.text_content("#status"))


def test_counts_are_singular_for_one_everywhere_on_the_page(page: object) -> None:
    counted = module(
        page,
        "words.js",
        "return [1, 2, 1000].map((n, k) => m.counted(n, ['move', 'slide', 'state'][k]));",
    )
    assert counted == ["1 move", "2 slides", "1,000 states"]
    options = page.locator("#database-moves option").all_text_contents()
    assert options[0] == "1 move (1 puzzle)"  # the 4×4 database: one puzzle of 1 move
    assert all(re.fullmatch(r"\d+ moves \([\d,]+ puzzles?\)", text) for text in options[1:])
    assert "2 moves (2 puzzles)" in options
    page.select_option("#database-moves", "1")
    page.click("#pick-database")
    assert wait_text(page, "#status", "line").startswith("Puzzle 1 of 1 with 1 move (line ")
    assert page.text_content("#title").endswith(" · 1 move")
    page.click("#hint")
    assert "You are 1 move from the exit" in wait_text(page, "#status", "Hint: ")
    words = solved_on_the_page(page)
    assert " · moves 1 · " in wait_text(page, "#solve-summary", words)
    page.click("#leave")
    puzzle = rhasp.parse(module(page, "state.js", "return m.game.start;"))
    (move,) = rhasp.solve(puzzle, engine="bfs").plan
    drag(page, move)
    assert page.text_content("#counter").startswith("1 move · ")
    assert wait_text(page, "#status", "minimum").startswith("Solved in 1 move; the minimum is 1 ")


def test_the_help_says_moves_and_slides_as_the_counter_counts_them(browser, server):
    # The counter says "1 move · 3 slides" after one drag of three cells: the help's words
    # agree, on a touch screen and with keys alike.
    said = "A move slides one vehicle any distance; each cell it crosses is a slide"
    for device in (PHONE, LAPTOP):
        for page in opened_page(browser, server, **device):
            help_text = page.inner_text(".help")
            assert said in help_text and "one slide is one move" not in help_text
            assert ("one drag is one move" in help_text) == (device is PHONE)
