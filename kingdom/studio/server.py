"""Kingdom Studio's web server: Starlette on uvicorn, bound to 127.0.0.1.

The page (static/index.html, studio.js, CodeMirror vendored in static/) asks this server, as
JSON, for what the language service (kingdom/editor/service.py) says of the text being typed
and for the card's proxy (proxy.py); it saves card files, runs scenarios, rates a card and
plays it against a bot (play.py). Two guards: only requests from this machine, addressed to
127.0.0.1 or localhost, are answered (so neither another host nor a web page that rebinds a
name of its own to this address can use it); and every file read or written is a `*.yaml`
inside PATH, found without following a link out of it.
"""

from __future__ import annotations

import os
import socket
import sys
import tempfile
import webbrowser
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kingdom.compiler.loader import MAX_BYTES, load_yaml
from kingdom.editor.service import Workspace, is_scenario_file
from kingdom.print import fonts
from kingdom.studio import play
from kingdom.studio.proxy import proxy_html

STATIC = Path(__file__).resolve().parent / "static"
LOCAL_PEERS = {"127.0.0.1", "::1", "localhost"}
LOCAL_NAMES = {"127.0.0.1", "localhost", "[::1]"}
MAX_GAMES_OPEN = 8  # games kept at once; the oldest is closed past that


class PathRefused(Exception):
    """A path the page may not read or write: outside PATH, not a card file, a link out."""


class CardRefused(Exception):
    """A card to rate or play that is not among the compiled cards."""


class LocalOnly:
    """ASGI middleware: 403 for a peer other than this machine, or a Host header naming
    another host (DNS rebinding)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            peer = (scope.get("client") or ("", 0))[0]
            host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
            name = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]")[0] + "]"
            if peer not in LOCAL_PEERS or name not in LOCAL_NAMES:
                response = PlainTextResponse("Kingdom Studio answers only this machine "
                                             "(127.0.0.1)", status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class Studio:
    """The state behind the page: the expansion's folder, its language service, the ratings
    and games under way."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.workspace = Workspace([self.root])
        self.ratings: dict[int, play.RatingJob] = {}
        self.games: dict[int, play.Game] = {}

    # ------------------------------------------------------------------ files
    def target(self, relative: Any) -> Path:
        """The file `relative` names inside PATH; PathRefused for anything else."""
        if not isinstance(relative, str) or not relative.endswith(".yaml") or "\0" in relative:
            raise PathRefused("a card file is a .yaml file inside the studio's folder")
        path = (self.root / relative).resolve()
        if not path.is_relative_to(self.root) or path == self.root:
            raise PathRefused(f"{relative}: outside the studio's folder {self.root}")
        if path.exists() and not path.is_file():
            raise PathRefused(f"{relative}: not a regular file")
        return path

    def files(self) -> list[dict[str, Any]]:
        """The expansion's card files with the card each holds (if it compiled)."""
        out = []
        for file in sorted(self.root.rglob("*.yaml")):
            relative = file.relative_to(self.root)
            if file.name == "expansion.yaml" or not file.is_file() or any(
                    p.startswith(".") for p in relative.parts):
                continue
            try:
                text = file.read_text(encoding="utf-8")
            except (OSError, UnicodeError):
                continue
            scenario = is_scenario_file(file, text)
            card = None if scenario else self.workspace.card_of(file)
            out.append({"path": relative.as_posix(), "scenario": scenario,
                        "name": card.name if card else None})
        return out

    def save(self, relative: Any, text: Any) -> tuple[int, dict[str, Any]]:
        """Write `text` to the file: refused (409, saying why) when it is not YAML and would
        replace a file that is, so that no good card is lost to a bad edit."""
        path = self.target(relative)
        if not isinstance(text, str) or len(text.encode("utf-8")) > MAX_BYTES:
            return 400, {"saved": False, "message": "the text is missing or too large"}
        doc, problems = load_yaml(str(path), text)
        if doc is None and path.exists() and load_yaml(str(path))[0] is not None:
            first = problems[0]
            return 409, {"saved": False, "message": (
                f"not saved: line {first.line}: {first.message}. The file on disk is the last "
                "one that was valid YAML; fix the text and save again.")}
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".studio-", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, path)
        except OSError as exc:
            Path(temporary).unlink(missing_ok=True)
            return 500, {"saved": False, "message": f"not saved: {exc}"}
        self.workspace.refresh()
        return 200, {"saved": True, "message": f"saved {path.relative_to(self.root)}"}

    # ------------------------------------------------------------------ the card
    def compiled(self, name: Any) -> tuple[Any, str]:
        """The library and the card `name` in it, as last checked; CardRefused if it is not."""
        library = self.workspace.library()
        if not isinstance(name, str) or name not in library:
            raise CardRefused(f"no card {name!r} compiled: fix its problems first")
        return library, name

    def check(self, relative: Any, text: Any) -> dict[str, Any]:
        """The problems of the text, and the card's proxy when it compiles."""
        path = self.target(relative)
        text = text if isinstance(text, str) else ""
        problems = self.workspace.problems(path, text)
        card = None if is_scenario_file(path, text) else self.workspace.card_of(path)
        if problems:
            card = None  # (the page keeps showing the last proxy that compiled, marked so)
        return {"problems": [_problem(p) for p in problems],
                "card": card.name if card else None,
                "proxy": proxy_html(card) if card is not None else None}


def _problem(problem) -> dict[str, Any]:
    r = problem.range
    return {"from": [r.line, r.column], "to": [r.end_line, r.end_column], "code": problem.code,
            "message": problem.message, "hint": problem.hint,
            "fixes": [{"title": f.title, "text": f.text} for f in problem.fixes]}


def _number(data: dict[str, Any], key: str, default: int = 0) -> int:
    """A whole number of the request, or `default` for anything else."""
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def make_app(root: Path) -> Starlette:
    """The page and its JSON endpoints for the expansion in `root`."""
    studio = Studio(root)

    async def body(request: Request) -> dict[str, Any]:
        try:
            data = await request.json()
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    def guarded(handler):
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except PathRefused as exc:
                return JSONResponse({"message": str(exc)}, status_code=403)
            except CardRefused as exc:
                return JSONResponse({"message": str(exc)}, status_code=400)
        return endpoint

    async def index(_request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def font(request: Request) -> Response:
        name = {"regular": fonts.FONT, "bold": fonts.BOLD}.get(request.path_params["weight"])
        if name is None:
            return PlainTextResponse("no such font", status_code=404)
        return FileResponse(fonts.font_file(name), media_type="font/ttf")

    async def files(_request: Request) -> Response:
        return JSONResponse({"root": str(studio.root), "files": studio.files()})

    async def read(request: Request) -> Response:
        path = studio.target(request.query_params.get("path"))
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        return JSONResponse({"path": request.query_params["path"], "text": text})

    async def save(request: Request) -> Response:
        data = await body(request)
        status, answer = studio.save(data.get("path"), data.get("text"))
        return JSONResponse(answer, status_code=status)

    async def check(request: Request) -> Response:
        data = await body(request)
        return JSONResponse(studio.check(data.get("path"), data.get("text")))

    async def complete(request: Request) -> Response:
        data = await body(request)
        path = studio.target(data.get("path"))
        found = studio.workspace.complete(path, str(data.get("text", "")), _number(data, "line"),
                                          _number(data, "column"))
        return JSONResponse({"items": [
            {"label": c.label, "text": c.text, "kind": c.kind, "detail": c.detail,
             "from": [c.range.line, c.range.column], "to": [c.range.end_line, c.range.end_column],
             "documentation": c.documentation} for c in found]})

    async def hover(request: Request) -> Response:
        data = await body(request)
        path = studio.target(data.get("path"))
        found = studio.workspace.hover(path, str(data.get("text", "")), _number(data, "line"),
                                       _number(data, "column"))
        return JSONResponse({"markdown": found.markdown if found else None})

    async def scenarios(request: Request) -> Response:
        data = await body(request)
        card = str(data.get("card", ""))
        return JSONResponse({"card": card, "outcomes": play.run_scenarios(studio.root, card)})

    async def rate(request: Request) -> Response:
        data = await body(request)
        library, card = studio.compiled(data.get("card"))
        job = play.start_rating(library, card, _number(data, "games", 20))
        studio.ratings[job.id] = job
        return JSONResponse(job.state())

    async def rating(request: Request) -> Response:
        job = studio.ratings.get(request.path_params["id"])
        return JSONResponse(job.state() if job else {"message": "no such rating"},
                            status_code=200 if job else 404)

    async def new_game(request: Request) -> Response:
        data = await body(request)
        library, card = studio.compiled(data.get("card"))
        seed = data.get("seed")
        game = play.Game(library, card, seed if isinstance(seed, int) else None)
        studio.games[game.id] = game
        while len(studio.games) > MAX_GAMES_OPEN:
            studio.games.pop(min(studio.games)).close()
        return JSONResponse(game.state())

    async def answer(request: Request) -> Response:
        game = studio.games.get(request.path_params["id"])
        if game is None:
            return JSONResponse({"message": "no such game"}, status_code=404)
        data = await body(request)
        refused = game.answer(str(data.get("answer", "")))
        return JSONResponse({**game.state(), "refused": refused})

    routes = [
        Route("/", index), Route("/font/{weight}", font),
        Route("/api/files", guarded(files)), Route("/api/file", guarded(read)),
        Route("/api/save", guarded(save), methods=["POST"]),
        Route("/api/check", guarded(check), methods=["POST"]),
        Route("/api/complete", guarded(complete), methods=["POST"]),
        Route("/api/hover", guarded(hover), methods=["POST"]),
        Route("/api/scenarios", guarded(scenarios), methods=["POST"]),
        Route("/api/rate", guarded(rate), methods=["POST"]),
        Route("/api/rate/{id:int}", guarded(rating)),
        Route("/api/play", guarded(new_game), methods=["POST"]),
        Route("/api/play/{id:int}", guarded(answer), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    app = Starlette(routes=routes)
    app.add_middleware(LocalOnly)
    return app


def serve(root: Path, port: int, open_browser: bool = True) -> int:
    """Serve the studio of `root` on 127.0.0.1:`port` (0: a free one) until interrupted. The
    socket is bound before the address is printed, so whoever reads it can connect at once."""
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind(("127.0.0.1", port))
    except OSError as exc:
        listening.close()
        print(f"kingdom studio: cannot listen on 127.0.0.1:{port}: {exc.strerror}", file=sys.stderr)
        return 2
    listening.listen(64)
    address = f"http://127.0.0.1:{listening.getsockname()[1]}/"
    print(f"Kingdom Studio for {root} at {address} (Ctrl-C stops it)", flush=True)
    if open_browser:
        webbrowser.open(address)
    config = uvicorn.Config(make_app(root), log_level="warning", lifespan="off")
    uvicorn.Server(config).run(sockets=[listening])
    return 0
