"""The load suite's HTTP scenarios for Locust: the same requests and the same correctness checks as tests/Load.

A request counts only when it answers as the load suite requires (status and body): a wrong answer is a failure,
never a fast response. Each request is named after its scenario, so the CSV statistics carry the name the budgets use
(budgets.json, SCENARIO.Distributed.*). Run one scenario at a time by naming its user class:

    python3 load/locust/run_locust.py -f load/locust/locustfile.py --headless -u 16 -r 16 --run-time 10s \
        --host http://127.0.0.1:5000 Employees9

Users are closed loops (a user sends its next request when the last one answered). PACING_SECONDS turns each user
into a paced loop (constant_pacing): U users at pacing P offer about U / P requests a second while the server keeps up.
"""
import os
from pathlib import Path

from locust import FastHttpUser, constant, constant_pacing, task

# The 9-employee list exactly as GET /api/employees?count=9 serializes it (4,489 bytes), the body the load suite
# compares with; the echo scenario sends it and expects it back byte for byte.
EMPLOYEES_9 = (Path(__file__).parent / "employees9.json").read_bytes()
DELAY_MS = int(os.environ.get("DELAY_MS", "10"))
PACING_SECONDS = float(os.environ.get("PACING_SECONDS", "0"))
JSON = {"Content-Type": "application/json"}


def _wait():
    return constant_pacing(PACING_SECONDS) if PACING_SECONDS > 0 else constant(0)


def _check(response, expected_body: bytes) -> None:
    """Success only for 200 with exactly the expected body; the failure text names what was wrong."""
    if response.status_code != 200:
        response.failure(f"status {response.status_code}")
    elif response.content != expected_body:
        body = response.content or b""
        first = next((i for i, (a, b) in enumerate(zip(body, expected_body)) if a != b), min(len(body), len(expected_body)))
        response.failure(f"wrong body ({len(body)} bytes, expected {len(expected_body)}; first difference at byte {first})")
    else:
        response.success()


class Employees9(FastHttpUser):
    """GET /api/employees?count=9: 200 with exactly the 9-employee list (Json.Endpoint.Employees9)."""

    wait_time = _wait()

    @task
    def employees(self):
        with self.client.get("/api/employees?count=9", name="Json.Endpoint.Employees9", catch_response=True) as response:
            _check(response, EMPLOYEES_9)


class Echo9(FastHttpUser):
    """POST /api/employees/echo with the 9-employee list: 200 with the same bytes back (Json.Endpoint.Echo9)."""

    wait_time = _wait()

    @task
    def echo(self):
        with self.client.post("/api/employees/echo", data=EMPLOYEES_9, headers=JSON, name="Json.Endpoint.Echo9",
                              catch_response=True) as response:
            _check(response, EMPLOYEES_9)


class DelayAsync(FastHttpUser):
    """GET /api/delay/async?ms=DELAY_MS: 200 with "Hello World,DELAY_MS" (Api.DelayAsync)."""

    wait_time = _wait()
    expected = f"Hello World,{DELAY_MS}".encode()

    @task
    def delay(self):
        with self.client.get(f"/api/delay/async?ms={DELAY_MS}", name="Api.DelayAsync", catch_response=True) as response:
            _check(response, self.expected)
