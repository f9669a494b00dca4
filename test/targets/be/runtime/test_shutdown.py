"""graceful_lifespan under a real uvicorn process, stopped with SIGTERM."""

import json
import os
import signal
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
app = FastAPI(lifespan=graceful_lifespan(DATABASE, drain_seconds=DRAIN_SECONDS))
in_flight = 0


@app.get("/ready")
async def ready() -> dict[str, str]:
    if draining():
        raise HTTPException(503, "draining")
    return {"status": "ok"}


@app.get("/in-flight")
async def count_in_flight() -> int:
    return in_flight


@app.get("/slow")
async def slow() -> dict[str, bool]:
    global in_flight
    in_flight += 1
    async with engine().connect() as connection:
        # Outlasts the drain: uvicorn has stopped accepting before it ends.
        await connection.execute(text(f"SELECT pg_sleep({DRAIN_SECONDS + 2})"))
    return {"done": True}
"""
DEADLINE = 30.0
"""Seconds any one wait may take: uvicorn's start, a request, its exit."""
DRAIN_SECONDS = 3.0
"""The app's drain: readiness must turn 503 within it, however busy the machine."""


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=DEADLINE) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_sigterm_drains_then_finishes_in_flight_requests(
    tmp_path: Path, free_port: int
) -> None:
    (tmp_path / "app.py").write_text(f"DRAIN_SECONDS = {DRAIN_SECONDS}\n{APP}")
    base = f"http://127.0.0.1:{free_port}"
    paths = [str(tmp_path), str(Path(next(iter(runtime.__path__))).parent)]
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app:app", "--port", str(free_port)]
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
            if time.monotonic() - started > DEADLINE:
                server.kill()
                raise AssertionError(
                    f"uvicorn did not start:\n{server.communicate()[0]}"
                )
            try:
                if get(f"{base}/ready")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        with ThreadPoolExecutor() as pool:
            slow = pool.submit(get, f"{base}/slow")
            asked = time.monotonic()
            while get(f"{base}/in-flight") != (200, "1"):
                assert not slow.done(), slow.result()
                assert time.monotonic() - asked < DEADLINE, "/slow never started"
                time.sleep(0.05)
            server.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
            # Draining: still serving, and readiness says to send nothing more.
            while get(f"{base}/ready")[0] != 503:
                assert time.monotonic() - signalled < DRAIN_SECONDS, "still ready"
                time.sleep(0.05)
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
