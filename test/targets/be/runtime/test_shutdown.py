"""graceful_lifespan under a real uvicorn process, stopped with SIGTERM."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import runtime
from fastapi import FastAPI
from fastapi.testclient import TestClient
from runtime.shutdown import draining, graceful_lifespan

APP = """
import os
from functools import cache

from fastapi import FastAPI, HTTPException
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from runtime.database import DatabaseNeeds
from runtime.shutdown import draining, graceful_lifespan


@cache
def engine() -> AsyncEngine:
    return create_async_engine(os.environ["TEST_DATABASE_URL"])


DATABASE = DatabaseNeeds(metadata=[], engine=engine, url_env="TEST_DATABASE_URL")
app = FastAPI(lifespan=graceful_lifespan(DATABASE, drain_seconds=1.5))


@app.get("/ready")
async def ready() -> dict[str, str]:
    if draining():
        raise HTTPException(503, "draining")
    return {"status": "ok"}


@app.get("/slow")
async def slow() -> dict[str, bool]:
    async with engine().connect() as connection:
        await connection.execute(text("SELECT pg_sleep(3)"))
    return {"done": True}
"""
DEADLINE = 30.0


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=DEADLINE) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_sigterm_drains_then_finishes_in_flight_requests(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    paths = [str(tmp_path), str(Path(next(iter(runtime.__path__))).parent)]
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app:app", "--port", str(port)]
        + ["--timeout-graceful-shutdown", "10"],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(paths)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        started = time.monotonic()
        while True:
            assert server.poll() is None, server.communicate()[0]
            assert time.monotonic() - started < DEADLINE, "uvicorn did not start"
            try:
                if get(f"{base}/ready")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        with ThreadPoolExecutor() as pool:
            slow = pool.submit(get, f"{base}/slow")
            time.sleep(0.5)  # the slow request is in flight
            server.send_signal(signal.SIGTERM)
            time.sleep(0.3)
            # Draining: still serving, and readiness says to send nothing more.
            assert get(f"{base}/ready")[0] == 503
            assert slow.result(timeout=DEADLINE) == (
                200,
                json.dumps({"done": True}, separators=(",", ":")),
            )
        output = server.communicate(timeout=DEADLINE)[0]
        assert "Closed the database pools" in output, output
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()


def test_the_lifespan_runs_outside_the_main_thread() -> None:
    """A TestClient starts the app in a thread of its own, where no signal arrives."""
    app = FastAPI(lifespan=graceful_lifespan(drain_seconds=0))
    with TestClient(app) as client:
        assert client.get("/openapi.json").status_code == 200
    assert not draining()
