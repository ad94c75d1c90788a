"""Kingdom Studio's server without a browser: it answers only this machine, reads and writes
only card files inside its folder, and never saves a broken buffer over a good file."""

from __future__ import annotations

import asyncio
import http.client
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kingdom.studio.server import LocalOnly, PathRefused, Studio

GOOD = "dsl: 1\nname: Smelter\ncost: 4\ntypes: [Action]\nplay: +1 card; +1 action; +$1\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "expansion"
    folder.mkdir()
    (folder / "expansion.yaml").write_text("name: Studio Test\nversion: 1.0.0\ndsl: 1\n")
    (folder / "smelter.yaml").write_text(GOOD)
    return folder


def _status(app, client: tuple[str, int], host: bytes) -> int:
    """The status an ASGI app answers a GET / with, from `client`, with Host `host`."""
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    async def reached(_scope, _receive, _send) -> None:
        await _send({"type": "http.response.start", "status": 200, "headers": []})
        await _send({"type": "http.response.body", "body": b"ok"})

    scope = {"type": "http", "method": "GET", "path": "/", "headers": [(b"host", host)],
             "client": client, "query_string": b"", "root_path": "", "scheme": "http"}
    asyncio.run((app or LocalOnly(reached))(scope, receive, send))
    return sent[0]["status"]


def test_only_this_machine_by_its_own_name_is_answered() -> None:
    assert _status(None, ("127.0.0.1", 5000), b"127.0.0.1:8765") == 200
    assert _status(None, ("::1", 5000), b"localhost:8765") == 200
    assert _status(None, ("192.168.1.20", 5000), b"127.0.0.1:8765") == 403  # another host
    assert _status(None, ("127.0.0.1", 5000), b"studio.example.com:8765") == 403  # rebinding


def test_the_running_server_refuses_a_foreign_host_name(root: Path) -> None:
    server = subprocess.Popen([sys.executable, "-m", "kingdom", "studio", str(root), "--port", "0",
                               "--no-browser"], stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline()).group(1))
        for host, expected in (("evil.example", 403), (f"127.0.0.1:{port}", 200)):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/api/files", headers={"Host": host})
            assert connection.getresponse().status == expected
            connection.close()
    finally:
        server.terminate()
        server.wait(10)


def test_no_path_outside_the_folder_is_read_or_written(root: Path, tmp_path: Path) -> None:
    studio = Studio(root)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "link").symlink_to(outside, target_is_directory=True)
    for path in ("../outside/x.yaml", str(outside / "x.yaml"), "link/x.yaml", "notes.txt",
                 "sub/../../x.yaml", None, "."):
        with pytest.raises(PathRefused):
            studio.target(path)
        with pytest.raises(PathRefused):
            studio.save(path, GOOD)
    assert list(outside.iterdir()) == []
    assert studio.save("sets/new.yaml", GOOD.replace("Smelter", "Kiln"))[0] == 200
    assert (root / "sets" / "new.yaml").read_text() == GOOD.replace("Smelter", "Kiln")


def test_a_broken_buffer_is_not_saved_over_a_good_file(root: Path) -> None:
    studio = Studio(root)
    status, answer = studio.save("smelter.yaml", "dsl: 1\nname: [Smelter\n")
    assert status == 409 and not answer["saved"]
    assert "not saved" in answer["message"] and "line" in answer["message"]
    assert (root / "smelter.yaml").read_text() == GOOD
    # a card that is YAML but does not compile is saved: its problems are shown, not lost
    assert studio.save("smelter.yaml", GOOD.replace("+1 card", "+1 crad"))[0] == 200


def test_check_gives_the_problems_and_the_proxy(root: Path) -> None:
    studio = Studio(root)
    answer = studio.check("smelter.yaml", GOOD.replace("[Action]", "[Acton]"))
    assert answer["proxy"] is None
    [problem] = answer["problems"]
    assert problem["code"] == "K300" and problem["fixes"] == [
        {"title": "Change to 'Action'", "text": "Action"}]
    answer = studio.check("smelter.yaml", GOOD)
    assert answer["problems"] == [] and answer["card"] == "Smelter"
    assert '<span class="name">Smelter</span>' in answer["proxy"]
    assert "+1 Card. +1 Action. +$1." in answer["proxy"]
    assert "ACTION" in answer["proxy"]
