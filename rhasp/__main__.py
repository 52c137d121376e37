"""``python -m rhasp`` and the ``rhasp`` command (``[project.scripts]`` names :func:`main`).

Small on purpose: the command line imports clingo, typer, rich and the rest of rhasp (0.4 s),
and Ctrl-C during those imports must end as it does later, one line and exit code 130, not a
KeyboardInterrupt traceback. So nothing is imported before :func:`main` runs, and the import
happens inside its ``try``. (``import rhasp`` itself is cheap: its names load on first use.)
"""

import sys

#: 128 + SIGINT, as shells report it (``rhasp.cli.EXIT_INTERRUPTED``, not imported: it is
#: what this module must be able to say before rhasp.cli has loaded).
EXIT_INTERRUPTED = 130


def main() -> None:
    """Run the command line; Ctrl-C before it has loaded is one line and exit code 130."""
    try:
        from rhasp.cli import main as command_line

        command_line()
    except KeyboardInterrupt:  # the command line catches its own; this is before, or after
        sys.stderr.write("rhasp: interrupted\n")
        sys.exit(EXIT_INTERRUPTED)


if __name__ == "__main__":
    main()
