"""``codegen dev``'s backend, started before it may serve: uvicorn, once told to.

Run with uvicorn's arguments (the application first). It imports the application at
once, while ``codegen dev`` checks the code and migrates the database beside it, then
waits for one line on stdin: ``serve`` runs uvicorn with those arguments, which finds
the application imported; anything else, or the end of stdin, ends it. An application
that fails to import ends it with its traceback, as uvicorn would.
"""

import importlib
import os
import sys


def main() -> None:
    args = sys.argv[1:]
    # As `python -m uvicorn` in the project: its directory first, not this script's.
    sys.path[0] = os.getcwd()
    importlib.import_module(args[0].partition(":")[0])
    if sys.stdin.readline().strip() != "serve":
        return
    from uvicorn.main import main as uvicorn

    uvicorn(args, prog_name="uvicorn")


if __name__ == "__main__":
    main()
