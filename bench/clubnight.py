"""A club night's load, and the most phones the server carries with it.

What a club night sends (bench/club_seed.py makes the clubs): at each card
table 3 to 7 phones (in turn), each opening its game's page, then polling
the scoreboard every 3 s with the version it shows (204 while nothing
changed; the new board once after a deal), and now and then opening the
page again; one deal saved a table about every 90 s (the three ways of
entering in turn); a watch link's page polling at every table and a club
night's big screen at every tenth.

wrk drives it through the front (Caddy over HTTPS, as a club serves it; a
phone's idle connection is the front's to hold, where it would keep one of
gunicorn's few sync workers waiting): one thread and one connection a card table, whose Lua
keeps each phone's own clock and version and sends what is due next
(latency is measured from when a request is sent; with a table's few
requests every 3 s, a connection is idle nearly all the time, so a slow
answer hardly delays the next). Run after run with more tables, it finds
the most phones served with the 95th percentile at or under 100 ms and
nothing failed.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from bench.club_seed import TABLES_A_CLUB
from bench.run import lua

POLL_MS = 3000
DEAL_MS = 90_000
START_MS = 15_000  # phones open their pages over the first seconds, as a round begins
RELOAD = 0.005  # a poll in 200 is a page opened again instead (about every 10 minutes)
P95_MS = 100

SCRIPT = r"""
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clk_id, bench_timespec *tp);
]]
local clock = ffi.new("bench_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, clock)  -- CLOCK_MONOTONIC
  return tonumber(clock.tv_sec) * 1000 + tonumber(clock.tv_nsec) / 1e6
end

local TABLES = %(tables)s
local POLL, DEAL, START, RELOAD = %(poll)d, %(deal)d, %(start)d, %(reload)f
local ORIGIN = %(origin)s
local threads = {}
local made = 0

function setup(thread)
  made = made + 1
  thread:set("me", made)
  table.insert(threads, thread)
end

local function spread(ms) return ms * (0.9 + 0.2 * math.random()) end

function init(args)
  math.randomseed(me * 7919)
  local t = TABLES[me]
  local start = now_ms()
  local gzip = "gzip"
  agents = {}
  for _, sid in ipairs(t.sessions) do
    local cookie = "sessionid=" .. sid .. "; csrftoken=" .. t.csrf
    table.insert(agents, {kind = "phone", due = start + math.random() * START, cookie = cookie})
  end
  table.insert(agents, {kind = "watch", due = start + math.random() * POLL})
  if t.screen then
    table.insert(agents, {kind = "screen", due = start + math.random() * POLL})
  end
  table.insert(agents, {kind = "deal", due = start + START + math.random() * DEAL,
                        cookie = agents[1].cookie})
  game, number, deals, csrf = t.game, t.number, t.deals, t.csrf
  watch, screen = t.watch, t.screen
  board_etag = nil  -- the board a phone's page shows when it opens
  pages, polls_204, polls_200, watched, screened, saved, bad = 0, 0, 0, 0, 0, 0, 0
  late_ms, statuses = 0, ""
end

local function next_agent()
  local best = agents[1]
  for i = 2, #agents do
    if agents[i].due < best.due then best = agents[i] end
  end
  return best
end

function delay()
  local wait = next_agent().due - now_ms()
  if wait < 0 then return 0 end
  return math.floor(wait)
end

function request()
  local a = next_agent()
  current = a
  local now = now_ms()
  if now > a.due then late_ms = late_ms + (now - a.due) end
  local h = {["Accept-Encoding"] = "gzip"}
  if a.kind == "phone" then
    h["Cookie"] = a.cookie
    if a.etag == nil or a.reload then
      a.sent = "page"
      return wrk.format("GET", "/games/" .. game .. "/", h)
    end
    a.sent = "poll"
    h["HX-Request"] = "true"
    h["If-None-Match"] = a.etag
    return wrk.format("GET", "/games/" .. game .. "/live/", h)
  elseif a.kind == "deal" then
    h["Cookie"] = a.cookie
    h["HX-Request"] = "true"
    h["X-CSRFToken"] = csrf
    h["Origin"] = ORIGIN
    h["Content-Type"] = "application/x-www-form-urlencoded"
    local key = "bench-" .. game .. "-" .. number
    local body = deals[tostring(number)] .. "&number=" .. number .. "&key=" .. key
    return wrk.format("POST", "/games/" .. game .. "/deals/", h, body)
  elseif a.kind == "watch" then
    if a.etag then h["If-None-Match"] = a.etag end
    return wrk.format("GET", "/watch/" .. watch .. "/live/", h)
  else
    if a.etag then h["If-None-Match"] = a.etag end
    return wrk.format("GET", "/watch/evenings/" .. screen .. "/live/", h)
  end
end

local function refused(a, status)
  bad = bad + 1
  statuses = statuses .. a.kind .. ":" .. status .. " "
end

function response(status, headers, body)
  local a = current
  local now = now_ms()
  local etag = headers["ETag"] or headers["Etag"] or headers["etag"]
  if a.kind == "phone" then
    if a.sent == "page" then
      if status ~= 200 then refused(a, status) end
      pages = pages + 1
      a.reload = false
      a.etag = board_etag or "none"
    else
      if status == 204 then polls_204 = polls_204 + 1
      elseif status == 200 then polls_200 = polls_200 + 1
      else refused(a, status) end
      if etag then a.etag = etag; board_etag = etag end
      a.reload = math.random() < RELOAD
    end
    a.due = a.due + POLL
  elseif a.kind == "deal" then
    if status == 200 then
      saved = saved + 1
      number = number + 1
    else
      refused(a, status)
    end
    a.due = a.due + spread(DEAL)
    if deals[tostring(number)] == nil then a.due = a.due + 1e9 end
  else
    if status == 200 or status == 204 then
      if a.kind == "watch" then watched = watched + 1 else screened = screened + 1 end
    else
      refused(a, status)
    end
    if etag then a.etag = etag end
    a.due = a.due + POLL
  end
  -- A phone that fell behind (a slow answer) polls next from now, as a timer would.
  if a.due < now - POLL then a.due = now end
end

function done(summary, latency, requests)
  local sums = {pages = 0, polls_204 = 0, polls_200 = 0, watched = 0, screened = 0,
                saved = 0, bad = 0, late_ms = 0}
  local numbers, why = {}, ""
  for _, thread in ipairs(threads) do
    for name, _ in pairs(sums) do sums[name] = sums[name] + thread:get(name) end
    table.insert(numbers, thread:get("number"))
    why = why .. thread:get("statuses")
  end
  local e = summary.errors
  io.write(string.format(
    '\n{"requests": %%d, "duration_us": %%d, "socket_errors": %%d, "p50_us": %%d, ' ..
    '"p95_us": %%d, "p99_us": %%d, "pages": %%d, "polls_204": %%d, "polls_200": %%d, ' ..
    '"watch_polls": %%d, "screen_polls": %%d, "deals": %%d, "failed": %%d, "late_ms": %%d, ' ..
    '"numbers": [%%s], "why": "%%s"}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99),
    sums.pages, sums.polls_204, sums.polls_200, sums.watched, sums.screened, sums.saved,
    sums.bad, sums.late_ms, table.concat(numbers, ","), why))
end
"""


def run(base: str, tables: list[dict], seconds: int, folder: str, start=START_MS) -> dict:
    """One club night of these card tables for ``seconds``; moves their deal numbers on."""
    script = SCRIPT % {
        "tables": lua(tables),
        "poll": POLL_MS,
        "deal": DEAL_MS,
        "start": start,
        "reload": RELOAD,
        "origin": lua(base),
    }
    path = Path(folder) / "clubnight.lua"
    path.write_text(script)
    threads = len(tables)
    command = ["wrk", f"-t{threads}", f"-c{threads}", f"-d{seconds}s", "--timeout", "10s"]
    command += ["-s", str(path), base + "/"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 120)
    if done.returncode != 0:
        raise SystemExit(f"wrk failed: {done.stderr.strip()}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    for table, number in zip(tables, found.pop("numbers"), strict=True):
        table["number"] = number
    phones = sum(len(t["sessions"]) for t in tables)
    seconds_run = found["duration_us"] / 1e6
    return {
        "tables": len(tables),
        "phones": phones,
        "requests": found["requests"],
        "rps": round(found["requests"] / seconds_run, 1),
        "p50_ms": round(found["p50_us"] / 1000, 1),
        "p95_ms": round(found["p95_us"] / 1000, 1),
        "p99_ms": round(found["p99_us"] / 1000, 1),
        "pages": found["pages"],
        "polls_unchanged": found["polls_204"],
        "polls_changed": found["polls_200"],
        "watch_polls": found["watch_polls"],
        "screen_polls": found["screen_polls"],
        "deals": found["deals"],
        "failed": found["failed"] + found["socket_errors"],
        "why": found["why"].strip(),
        # How far behind its timer the average request went out (the client's own lag).
        "late_ms_per_request": round(found["late_ms"] / max(1, found["requests"]), 1),
    }


def passes(step: dict) -> bool:
    return step["failed"] == 0 and step["p95_ms"] <= P95_MS


def capacity(base: str, tables: list[dict], seconds: int, folder: str, log=print) -> dict:
    """The most card tables (and phones) that pass: doubling, then halving the gap to
    within a tenth."""
    steps: list[dict] = []

    def step(count: int) -> bool:
        time.sleep(5)  # what the last run left queued is answered first
        found = run(base, tables[:count], seconds, folder)
        steps.append(found)
        log(
            f"  club night, {found['tables']} tables, {found['phones']} phones: "
            f"{found['rps']} req/s, p95 {found['p95_ms']} ms, {found['failed']} failed"
            + (f" ({found['why'][:200]})" if found["why"] else "")
        )
        return passes(found)

    # A server that has been up a while: every process has read each club's finished
    # games and made its first pages (a first request takes a few hundred ms).
    # (A few clubs' worth: every table at once would queue more than the next run's length.)
    warm = run(base, tables[: 2 * TABLES_A_CLUB], 10, folder, start=8000)
    log(f"  club night, warming up: {warm['requests']} requests")
    good, bad = 0, None
    count = min(8, len(tables))
    while bad is None:
        if step(count):
            good = count
            if count == len(tables):
                break
            count = min(count * 2, len(tables))
        else:
            bad = count
    while bad is not None and bad - good > max(1, good // 10):
        middle = (good + bad) // 2
        if step(middle):
            good = middle
        else:
            bad = middle
    best = max((s for s in steps if passes(s) and s["tables"] == good), default=None, key=len)
    return {
        "tables": good,
        "phones": best["phones"] if best else 0,
        "best": best,
        "limited_by_seed": bad is None,
        "steps": steps,
        "seconds_per_step": seconds,
        "p95_goal_ms": P95_MS,
    }
