"""Which clingo options rhasp passes on (``--clingo-arg``, ``clingo_args``): those that tune
how the solver searches, never those that change what its answer means.

The ASP driver reads one model, the plan of the first satisfiable horizon, and the horizons
before it are the proof. An option that makes clingo report several models (``--models``),
brave or cautious consequences (``--enum-mode``), optimal or projected models, stable models
no more (``--supp-models``), or that redefines the encodings' terms (``--const``: ``-c h=v``
makes every car vertical), would turn that one answer into something else (with
``--models=2``, the atoms of two plans of card 1 read as one plan of 16 "optimal" moves
that does not replay).

So this is an allow-list: the options of clasp's search (configuration presets, decision
heuristic, threads, restarts, nogood deletion and learning, preprocessing, randomness), each
of which changes how fast an answer comes, not which stable models exist. Anything else is
refused with the reason, if rhasp knows one. Each option is one argument, by its full name
(``--parallel-mode=2``; the short ``-t2`` too): clingo reads a bare number as ``--models`` and
accepts abbreviations (``--model=0``), which a list of names could not follow. The heuristic
and the threads are free: the state memo's pruning holds whatever order the solver decides
steps in (its heuristic only makes the memo effective), and its memo is shared by any number
of threads, every board in it being reachable in the step it records, whichever thread found
it (``rhasp/engines/memo.py``). The driver sets clingo's models to 1 itself as well.
"""

from __future__ import annotations

from collections.abc import Sequence

from rhasp.errors import InputError

#: clasp's search options: how it searches, never what it finds (``clingo --help=3``).
SEARCH = frozenset(
    {
        "configuration",
        "share",
        "learn-explicit",
        "sat-prepro",
        "trans-ext",
        "eq",
        "backprop",
        "eq-dfs",
        "parallel-mode",
        "global-restarts",
        "distribute",
        "integrate",
        "lookahead",
        "heuristic",
        "init-moms",
        "score-res",
        "score-other",
        "sign-def",
        "sign-fix",
        "berk-huang",
        "vsids-acids",
        "vsids-progress",
        "nant",
        "dom-mod",
        "save-progress",
        "init-watches",
        "update-mode",
        "acyc-prop",
        "seed",
        "partial-check",
        "sign-def-disj",
        "rand-freq",
        "rand-prob",
        "no-lookback",
        "forget-on-step",
        "strengthen",
        "otfs",
        "update-lbd",
        "update-act",
        "reverse-arcs",
        "contraction",
        "loops",
        "restarts",
        "reset-restarts",
        "local-restarts",
        "counter-restarts",
        "block-restarts",
        "shuffle",
        "deletion",
        "del-grow",
        "del-cfl",
        "del-init",
        "del-estimate",
        "del-max",
        "del-glue",
        "del-on-restart",
    }
)
#: Of those, the flags that have a ``--no-`` form.
NEGATABLE = frozenset(
    {"backprop", "init-moms", "sign-fix", "berk-huang", "vsids-acids", "nant", "local-restarts"}
)
#: clingo's ready-made configurations; a configuration file may set any option, --models too.
PRESETS = ("auto", "frumpy", "jumpy", "tweety", "handy", "crafty", "trendy", "many")

ONE_MODEL = "rhasp reads one model, the plan of the first satisfiable horizon"
NO_OPTIMISATION = "the encodings optimise nothing: the first satisfiable horizon is the minimum"
#: Options refused, and why.
REFUSED = {
    "models": f"{ONE_MODEL}; several would be merged into no plan at all",
    "enum-mode": f"brave or cautious consequences are no plan; {ONE_MODEL}",
    "project": f"projected models are not plans; {ONE_MODEL}",
    "opt-mode": NO_OPTIMISATION,
    "opt-stop": NO_OPTIMISATION,
    "opt-strategy": NO_OPTIMISATION,
    "opt-usc-shrink": NO_OPTIMISATION,
    "opt-heuristic": NO_OPTIMISATION,
    "restart-on-model": f"{ONE_MODEL}, so it never restarts on one",
    "const": "it would redefine the encodings' terms (-c h=v makes every car vertical); "
    "--max-horizon bounds the horizons",
    "supp-models": "supported models are not all plans: the encodings mean stable models",
    "no-ufs-check": "without the unfounded-set check a model need not be stable, nor a plan",
    "no-gamma": "it drops rules of the program the encodings are",
    "solve-limit": "a horizon it stops is neither proven empty nor solved; use --timeout",
    "single-shot": "the driver grounds and solves one horizon after another (multi-shot)",
    "stats": "rhasp gathers the solver's figures itself (--verbose, --format json)",
    "warn": "rhasp silences the encodings' warnings (--warn=none)",
}
SHORT = {
    "t": "parallel-mode",
    "n": "models",
    "e": "enum-mode",
    "c": "const",
    "r": "restarts",
    "d": "deletion",
    "s": "stats",
    "W": "warn",
}
WHERE = "--clingo-arg"


def checked_clingo_args(args: Sequence[str], where: str = WHERE) -> tuple[str, ...]:
    """``args`` when every one is a search option rhasp passes to clingo (module docstring);
    else an InputError naming the first that is not, and why."""
    for arg in args:
        why = _refusal(arg)
        if why is not None:
            raise InputError(f"{arg!r}: {why}", where)
    return tuple(args)


def option_name(arg: str) -> str | None:
    """The long name of the option ``arg`` gives (``--seed=3``, ``-t2``: ``seed``,
    ``parallel-mode``); None for an argument that is no option."""
    if arg.startswith("--"):
        return arg[2:].split("=", 1)[0]
    if arg.startswith("-") and len(arg) > 1:
        return SHORT.get(arg[1], "")
    return None


def _refusal(arg: str) -> str | None:
    """Why ``arg`` is not passed on, or None when it is."""
    name = option_name(arg)
    if name is None:
        return (
            "not an option: give each in one argument with its value (--parallel-mode=2); "
            "clingo reads a bare number as --models"
        )
    if name in REFUSED:
        return f"refused: {REFUSED[name]}"
    positive = name.removeprefix("no-")
    if name in SEARCH or (name != positive and positive in NEGATABLE):
        if name == "configuration" and arg.partition("=")[2] not in PRESETS:
            return f"give a preset ({', '.join(PRESETS)}): a file may set any option"
        return None
    if arg.startswith("-") and not arg.startswith("--"):
        return "rhasp passes clingo's search options by their full names (-t2 aside)"
    known = sorted(full for full in SEARCH | REFUSED.keys() if name and full.startswith(name))
    if known:
        names = ", ".join(f"--{full}" for full in known)
        return f"write clingo's full option name ({names})"
    return "not one of clingo's search options, the only ones rhasp passes on"
