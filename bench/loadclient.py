"""The load test's client: one process drives its share of the halls over HTTP with asyncio and
aiohttp, as the hall's browsers would (htmx requests, a logged-in session, the CSRF token), and
returns every request's time. It imports nothing of Django: it only speaks HTTP.

Three modes:

- ``paced``: each hall's people at their own pace (the projector polls the flashboard every
  second, the caller enters a ball every few seconds, the door sells, the bookkeeper and the
  inspectors look at pages now and then). The throughput is what the night asks for; the
  latencies are what the night gets.
- ``closed``: ``concurrency`` connections send the same mix (in the same proportions) back to back,
  as fast as the server answers: the mix's capacity.
- ``ceiling``: the same connections send GET to a bare Django view returning a constant: the
  framework's capacity on the same server, against which the mix's capacity is a ratio.
- ``paced`` with ``constant``: the same night, the same people at the same pace, every request
  sent to the constant view instead: what the framework delivers for the same offered load.
- ``polls``: the same connections poll the flashboards only, nothing changing (each hall's
  first poll has the board, every other one is a 304): what the projector's poll costs.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

#: The request kinds, as reported.
POLL = "flashboard poll"
BALL = "ball call"
GAME = "game finish/confirm/start"
SALE = "door sale"
COUNTS = "door counts"
BOOKS = "bookkeeper page"
INSPECTOR = "inspector page"
CEILING = "constant view"
KINDS = (POLL, BALL, GAME, SALE, COUNTS, BOOKS, INSPECTOR, CEILING)
#: The header the pages' timed htmx polls send (beano/accounts/middleware.py: a poll does not
#: keep a session from timing out).
POLL_HEADER = "X-Beano-Poll"


@dataclass(frozen=True)
class Pace:
    """Seconds between two requests of one person (the inspector: of one inspector, who looks
    after twenty halls)."""

    poll: float = 1.0  # the flashboard page's htmx poll ("every 1s")
    ball: float = 6.0  # a caller's ball, ten a minute
    sale: float = 20.0  # the door's sales, three a minute through the night
    counts: float = 15.0  # the door screen's counts ("every 15s")
    books: float = 60.0  # the bookkeeper looks at a page once a minute
    inspector: float = 6.0  # an inspector's pages (one for every twenty halls)

    def rates(self, halls: int, inspectors: int) -> dict[str, float]:
        """Requests per second of each kind the night asks for (game changes ride on balls)."""
        return {
            POLL: halls / self.poll,
            BALL: halls / self.ball,
            SALE: halls / self.sale,
            COUNTS: halls / self.counts,
            BOOKS: halls / self.books,
            INSPECTOR: inspectors / self.inspector,
        }


@dataclass
class Stat:
    times: list[float] = field(default_factory=list)  # milliseconds
    statuses: Counter = field(default_factory=Counter)
    errors: int = 0
    samples: list[str] = field(default_factory=list)
    not_modified: int = 0
    late: int = 0  # requests that started later than their time (the client fell behind)

    def add(self, ms: float, status: int, ok: bool, sample: str = "") -> None:
        self.times.append(ms)
        self.statuses[status] += 1
        if status == 304:
            self.not_modified += 1
        if not ok:
            self.errors += 1
            if len(self.samples) < 5:
                self.samples.append(f"{status}: {sample[:300]}")

    def as_dict(self) -> dict[str, Any]:
        return {
            "times": self.times,
            "statuses": {str(k): v for k, v in self.statuses.items()},
            "errors": self.errors,
            "samples": self.samples,
            "not_modified": self.not_modified,
            "late": self.late,
        }


class Caller:
    """One hall's caller and member in charge: a ball every few seconds, never one already
    called (3.04(6)(a)), at most 75; after the game's last ball the game is finished (the
    button, then the summary's "Yes, finish" as on the page), the next one's 75 balls are
    confirmed (3.04(4)(b)) and it is started."""

    def __init__(self, hall: dict[str, Any], rng: random.Random) -> None:
        self.hall = hall
        self.rng = rng
        self.called = set(hall["called"])
        self.games = list(hall["games"])
        self.game = hall["game"]
        self.step = "call" if self.game else "confirm"
        if not self.game:  # between games: the next planned one is confirmed and started
            self.game = self.games[0] if self.games else 0
        self.target = self._target()
        self.busy = False

    def _target(self) -> int:
        """How many balls this game takes before someone wins it."""
        return max(len(self.called) + 1, self.rng.randint(25, 60))

    def next_request(self) -> tuple[str, str, dict[str, str], bytes] | None:
        """(kind, path, form, text expected in the answer) of the next act, or None when the
        program is over."""
        h = self.hall
        base = f"/org/{h['org']}/occasions/{h['occasion']}/games/{self.game}"
        if not self.game:
            return None
        if self.step == "call":
            if len(self.called) >= min(self.target, 75):
                self.step = "finish"
            else:
                left = [n for n in range(1, 76) if n not in self.called]
                ball = self.rng.choice(left)
                return BALL, f"{base}/draw/call/", {"ball": str(ball)}, b"called (#"
        if self.step == "finish":  # the button first shows what finishing will do
            return GAME, f"{base}/finish/", {}, b"Yes, finish game"
        if self.step == "finish-confirmed":  # then the summary's button finishes it
            return GAME, f"{base}/finish/", {"confirmed": "yes"}, b"is finished."
        if self.step == "confirm":
            return GAME, f"{base}/balls/", {}, b"are in the receptacle"
        return GAME, f"{base}/start/", {}, b"has begun."

    def done(self, form: dict[str, str], ok: bool) -> None:
        """Move on after an answer (a refused act is not repeated the same way)."""
        if self.step == "call":
            if ok:
                self.called.add(int(form["ball"]))
            return
        if not ok:
            return
        if self.step == "finish":
            self.step = "finish-confirmed"
        elif self.step == "finish-confirmed":
            if self.game in self.games:
                self.games.remove(self.game)
            self.game = self.games[0] if self.games else 0
            self.called = set()
            self.step = "confirm"
        elif self.step == "confirm":
            self.step = "start"
        else:
            self.step = "call"
            self.target = self._target()


class Client:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.base = spec["base"]
        self.host = spec["host"]
        self.origin = f"https://{self.host}"
        self.halls = spec["halls"]
        self.inspectors = spec["inspectors"]
        self.pace = Pace(**spec.get("pace", {}))
        self.rng = random.Random(spec.get("seed", 1))
        self.stats: dict[str, Stat] = {k: Stat() for k in KINDS}
        self.etags: dict[int, str] = {}
        self.callers = [Caller(h, random.Random(h["occasion"])) for h in self.halls]
        #: Requests sent before this moment (``time.perf_counter``) are not counted: a paced
        #: night's first seconds warm the freshly started servers (``spec["warmup"]``).
        self.measure_from = 0.0

    # -- one request of each kind ---------------------------------------------------------

    def _headers(self, session: str | None, csrf: str | None, htmx: bool) -> dict[str, str]:
        headers = {"Host": self.host, "X-Forwarded-Proto": "https"}
        if session:
            headers["Cookie"] = f"sessionid={session}; csrftoken={csrf}"
        if htmx:
            headers["HX-Request"] = "true"
        return headers

    async def _send(
        self,
        kind: str,
        method: str,
        path: str,
        *,
        session: str | None = None,
        csrf: str | None = None,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        expect: bytes = b"",
        htmx: bool = True,
    ) -> tuple[int, bytes, dict[str, str]]:
        h = self._headers(session, csrf, htmx)
        if method == "POST":
            h["X-CSRFToken"] = csrf or ""
            h["Origin"] = self.origin
        if headers:
            h.update(headers)
        start = time.perf_counter()
        counted = start >= self.measure_from
        try:
            async with self.http.request(
                method, self.base + path, data=data, headers=h, allow_redirects=False
            ) as response:
                body = await response.read()
                status = response.status
                etag = response.headers.get("ETag")  # the header's name is case-blind
                got = {"ETag": etag} if etag else {}
        except Exception as error:
            ms = (time.perf_counter() - start) * 1000
            if counted:
                self.stats[kind].add(ms, 599, False, f"{type(error).__name__}: {error}")
            return 599, b"", {}
        ms = (time.perf_counter() - start) * 1000
        # Stricter than "2xx or 3xx": every request of the night expects its page (200) or,
        # for a poll, "not modified" (304); a redirect (to the login or the second factor's
        # page) or a refusal where the act should pass is an error too.
        ok = (status == 200 and (not expect or expect in body)) or (status == 304 and kind == POLL)
        if kind == CEILING:
            ok = status == 200
        if counted:
            self.stats[kind].add(ms, status, ok, body.decode("utf-8", "replace"))
        return status, body, got

    async def poll(self, i: int) -> None:
        hall = self.halls[i]
        etag = self.etags.get(i)
        headers = {POLL_HEADER: "1"} | ({"If-None-Match": etag} if etag else {})
        _, _, headers = await self._send(
            POLL, "GET", f"/flash/{hall['token']}/board/", headers=headers
        )
        if "ETag" in headers:
            self.etags[i] = headers["ETag"]

    async def call(self, i: int) -> None:
        caller = self.callers[i]
        if caller.busy:
            return
        act = caller.next_request()
        if act is None:
            return
        kind, path, form, expect = act
        caller.busy = True
        try:
            who = "caller" if kind == BALL else "mic"
            status, body, _ = await self._send(
                kind,
                "POST",
                path,
                session=self.halls[i]["sessions"][who],
                csrf=self.halls[i]["csrf"],
                data=form,
                expect=expect,
            )
            caller.done(form, 200 <= status < 300 and expect in body)
        finally:
            caller.busy = False

    async def sell(self, i: int) -> None:
        hall = self.halls[i]
        prices = hall["prices"]
        form = {f"qty_{prices['admission']}": "1", "admission_receipt": ""}
        extras = (("extra_regular", 3), ("bonus", 1), ("special", 2))
        for category, most in extras:
            quantity = self.rng.randint(0, most)
            form[f"qty_{prices[category]}"] = str(quantity) if quantity else ""
        await self._send(
            SALE,
            "POST",
            f"/org/{hall['org']}/occasions/{hall['occasion']}/sales/record/",
            session=hall["sessions"]["seller"],
            csrf=hall["csrf"],
            data=form,
            expect=b" recorded ",
        )

    async def counts(self, i: int) -> None:
        hall = self.halls[i]
        await self._send(
            COUNTS,
            "GET",
            f"/org/{hall['org']}/occasions/{hall['occasion']}/sales/counts/",
            session=hall["sessions"]["seller"],
            csrf=hall["csrf"],
            headers={POLL_HEADER: "1"},  # its hx-trigger "every 15s", which says it polls
        )

    async def books(self, i: int) -> None:
        hall = self.halls[i]
        page = self.rng.choice(("", "games/", "sales/counts/"))
        await self._send(
            BOOKS,
            "GET",
            f"/org/{hall['org']}/occasions/{hall['occasion']}/{page}",
            session=hall["sessions"]["books"],
            csrf=hall["csrf"],
            htmx=page == "sales/counts/",
        )

    async def inspect(self, k: int) -> None:
        inspector = self.inspectors[k]
        i = self.rng.choice(inspector["halls"])
        hall, game = self.halls[i], self.callers[i].game
        pages = [
            "/inspect/",
            f"/org/{hall['org']}/occasions/{hall['occasion']}/",
            f"/org/{hall['org']}/occasions/{hall['occasion']}/record/",
            f"/org/{hall['org']}/occasions/{hall['occasion']}/games/",
            f"/org/{hall['org']}/audit/",
        ]
        if game:
            pages.append(f"/org/{hall['org']}/occasions/{hall['occasion']}/games/{game}/draw/")
        await self._send(
            INSPECTOR,
            "GET",
            self.rng.choice(pages),
            session=inspector["session"],
            csrf=inspector["csrf"],
            htmx=False,
        )

    async def constant(self) -> None:
        await self._send(CEILING, "GET", "/bench/constant/", htmx=False)

    # -- the three modes ------------------------------------------------------------------

    async def _paced(self, kind: str, act: Any, interval: float, start: float, end: float) -> None:
        """Call ``act`` every ``interval`` seconds from a random moment of the first interval;
        one that starts more than 100 ms after its time is counted late (the client or the
        server fell behind)."""
        loop = asyncio.get_running_loop()
        t = start + self.rng.uniform(0, interval)
        while t < end:
            now = loop.time()
            if t > now:
                await asyncio.sleep(t - now)
            elif now - t > 0.1 and time.perf_counter() >= self.measure_from:
                self.stats[kind].late += 1
            before = loop.time()
            await act()
            t += interval
            if t < before:
                t = before  # fell behind: the next one goes at once, no burst to catch up

    async def paced(self, duration: float) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        end = start + duration
        p = self.pace
        tasks = []
        if self.spec.get("constant"):  # the same night, every request to the constant view
            rates = p.rates(len(self.halls), len(self.inspectors))
            kinds = {POLL: p.poll, BALL: p.ball, SALE: p.sale, COUNTS: p.counts, BOOKS: p.books}
            for kind, interval in kinds.items():
                tasks += [
                    self._paced(kind, self.constant, interval, start, end)
                    for _ in range(round(rates[kind] * interval))
                ]
            tasks += [
                self._paced(INSPECTOR, self.constant, p.inspector, start, end)
                for _ in self.inspectors
            ]
            await asyncio.gather(*tasks)
            return
        for i in range(len(self.halls)):
            tasks += [
                self._paced(POLL, lambda i=i: self.poll(i), p.poll, start, end),
                self._paced(BALL, lambda i=i: self.call(i), p.ball, start, end),
                self._paced(SALE, lambda i=i: self.sell(i), p.sale, start, end),
                self._paced(COUNTS, lambda i=i: self.counts(i), p.counts, start, end),
                self._paced(BOOKS, lambda i=i: self.books(i), p.books, start, end),
            ]
        for k in range(len(self.inspectors)):
            tasks.append(
                self._paced(INSPECTOR, lambda k=k: self.inspect(k), p.inspector, start, end)
            )
        await asyncio.gather(*tasks)

    async def closed(self, duration: float, concurrency: int, only: str = "") -> None:
        """``concurrency`` connections, each sending the next request as soon as it has the
        answer; the kinds are drawn in the proportions of the paced night."""
        loop = asyncio.get_running_loop()
        end = loop.time() + duration
        rates = self.pace.rates(len(self.halls), len(self.inspectors))
        kinds = list(rates)
        weights = [rates[k] for k in kinds]
        n = len(self.halls)

        async def worker() -> None:
            while loop.time() < end:
                if only == CEILING:
                    await self.constant()
                    continue
                if only == POLL:
                    await self.poll(self.rng.randrange(n))
                    continue
                kind = self.rng.choices(kinds, weights)[0]
                i = self.rng.randrange(n)
                if kind == POLL:
                    await self.poll(i)
                elif kind == BALL:
                    for _ in range(8):  # a hall whose caller is not waiting for an answer
                        if not self.callers[i].busy:
                            break
                        i = self.rng.randrange(n)
                    await self.call(i)
                elif kind == SALE:
                    await self.sell(i)
                elif kind == COUNTS:
                    await self.counts(i)
                elif kind == BOOKS:
                    await self.books(i)
                elif self.inspectors:
                    await self.inspect(self.rng.randrange(len(self.inspectors)))

        await asyncio.gather(*(worker() for _ in range(concurrency)))

    async def run(self) -> dict[str, Any]:
        import aiohttp

        spec = self.spec
        connector = aiohttp.TCPConnector(limit=spec["connections"], ttl_dns_cache=None)
        timeout = aiohttp.ClientTimeout(total=30)
        async with aiohttp.ClientSession(
            connector=connector, timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()
        ) as self.http:
            # Wait for the common start, so that the client processes begin together.
            delay = spec["start_at"] - time.time()
            if delay > 0:
                await asyncio.sleep(delay)
            began = time.perf_counter()
            if spec["mode"] == "paced":
                warmup = spec.get("warmup", 0.0)
                began = self.measure_from = began + warmup
                await self.paced(warmup + spec["duration"])
            else:
                only = {"ceiling": CEILING, "polls": POLL}.get(spec["mode"], "")
                await self.closed(spec["duration"], spec["concurrency"], only)
            elapsed = time.perf_counter() - began
        return {
            "elapsed": elapsed,
            "stats": {k: s.as_dict() for k, s in self.stats.items() if s.times},
        }


def run(spec: dict[str, Any]) -> dict[str, Any]:
    """The entry point of a client process."""
    try:
        import uvloop  # type: ignore[import-not-found]

        uvloop.install()
    except ImportError:
        pass
    return asyncio.run(Client(spec).run())
