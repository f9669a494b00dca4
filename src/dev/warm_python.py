"""An interpreter ``codegen dev`` starts ahead of need: the libraries imported, the project not.

Run with the modules to import ahead (``sqlalchemy.orm fastapi ...``; one that fails to
import is left to the script that needs it, which says why). Then it waits for one line on
stdin, a JSON list ``[script, arg, ...]``, and runs the script as ``python script arg ...``
would, the rest of stdin being the script's. The end of stdin before that line (``codegen
dev`` stopped, or discarded it) ends it.

No module of the project is imported before that line, which comes after the change it
serves was saved: a library that imported one would have imported code that may be stale,
so such modules are forgotten and the script imports them afresh.
"""

import atexit
import contextlib
import importlib
import json
import os
import runpy
import sys


def project_modules(project: str) -> list[str]:
    """Modules loaded from the project's files (its virtual environment's are libraries)."""
    libraries = os.path.realpath(sys.prefix) + os.sep
    found = []
    for name, module in list(sys.modules.items()):
        path = os.path.realpath(getattr(module, "__file__", None) or os.devnull)
        if path.startswith(project) and not path.startswith(libraries):
            found.append(name)
    return found


def name_process(name: str) -> None:
    """What ``ps`` and ``top`` call it: the script it runs, not ``python``."""
    try:
        with open("/proc/self/comm", "w") as comm:
            comm.write(name[:15])
    except OSError:
        pass  # not Linux


def main() -> None:
    for name in sys.argv[1:]:
        # One that fails is left to the script that imports it, which says why.
        with contextlib.suppress(Exception):
            importlib.import_module(name)
    for name in project_modules(os.path.realpath(os.getcwd()) + os.sep):
        del sys.modules[name]
    line = sys.stdin.readline()
    if not line:
        return
    script, *args = json.loads(line)
    name_process(os.path.basename(script))
    sys.argv = [script, *args]
    sys.path[0] = os.path.dirname(script)
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exit:
        # A failure ends as Python ends it (the message, the status).
        if exit.code not in (None, 0):
            raise
    # A success ends without the interpreter's teardown of every module the libraries
    # loaded: that takes a third of a second, and the next server waits for this one.
    # What the teardown runs first (logging's flush, exporters) still runs.
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
