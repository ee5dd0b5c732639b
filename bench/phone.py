"""The phone benchmark: what a person at the table feels on a slow phone, each
figure measured in the page and set against its floor, the least the
throttling allows, worked out in the same run from the bytes that crossed.

Chromium throttled as a mid-range phone on slow 4G (bench/front.py's
THROTTLING), 360×640, on the benchmark's 60-deal game, over HTTP/2 through
the front and over HTTP/1.1 straight from gunicorn, in turns:

- **tap**: a heart chip's pointerdown until the frame that shows the new
  tally (Event Timing's duration of the interaction). Floor: the same taps,
  measured the same way in the same throttled phone, on a bare page of
  labelled radios whose change sets one text (a pointerdown, the gesture, a
  click and the frame after it: more than one frame).
- **save changes** / **save in view**: the pointerdown on Save until the
  totals' text changes (a MutationObserver), and until the changed totals are
  wholly inside the screen (checked each frame). Floor: the request's latency,
  its body up and the answer down at the throttled rates, and a frame.
- **cold page**: a phone that never opened the app, from the navigation's
  start until the page can be tapped with its check working (the deferred
  scripts run: DOMContentLoaded's end). Floor: the page's and its files'
  latency (two rounds: the page, then what it names) and their bytes down.
- **script before usable**: the main thread's script time until then
  (Chromium's own ScriptDuration), as a share of the cold page's floor.
- **watch link sees it**: a second phone on the game's watch link, from the
  save's tap until its board changes. Floor: one poll's wait (3 s) at worst,
  half of it on average; the ratio is against the average.
"""

from __future__ import annotations

import os
import statistics

from bench.front import THROTTLING

FRAME_MS = 1000 / 60
POLL_MS = 3000

# Each tap's Event Timing entries are kept by interaction; the tally's change
# is noted too, so a tap that changed nothing shows as such.
WATCH_TAPS = """() => {
  window.__taps = new Map();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (!e.interactionId) continue;
      const was = window.__taps.get(e.interactionId) || 0;
      window.__taps.set(e.interactionId, Math.max(was, e.duration));
    }
  }).observe({ type: "event", durationThreshold: 16, buffered: false });
}"""

WATCH_SAVE = """() => {
  const before = document.querySelector(".totals .points").textContent;
  window.__saved = { tapped: 0, changed: 0, shown: 0, wall: 0 };
  const seen = new MutationObserver(() => {
    const points = document.querySelector(".totals .points");
    if (points && points.textContent !== before && !window.__saved.changed) {
      window.__saved.changed = performance.now();
    }
  });
  const everything = { childList: true, subtree: true, characterData: true };
  seen.observe(document.getElementById("game-body"), everything);
  document.addEventListener("pointerdown", (event) => {
    window.__saved.tapped = event.timeStamp;
    window.__saved.wall = Date.now();
    const look = () => {
      const points = document.querySelector(".totals .points");
      const r = points.closest(".totals").getBoundingClientRect();
      if (points.textContent !== before && r.top >= 0 && r.bottom <= innerHeight) {
        window.__saved.shown = performance.now();
        seen.disconnect();
      } else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  }, { once: true, capture: true });
}"""

WATCH_BOARD = """() => {
  const board = document.querySelector(".totals .points");
  window.__board = { before: board.textContent, changed: 0 };
  new MutationObserver(() => {
    const now = document.querySelector(".totals .points");
    if (now && now.textContent !== window.__board.before && !window.__board.changed) {
      window.__board.changed = Date.now();
    }
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
}"""

# What crossed before the page was usable: the page and every file it asked
# for before DOMContentLoaded's end, by bytes on the wire.
LOADED = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const usable = nav.domContentLoadedEventEnd;
  const files = performance.getEntriesByType("resource").filter((r) => r.startTime < usable);
  return {
    usable, protocol: nav.nextHopProtocol,
    wait: nav.responseStart - nav.requestStart, parsed: nav.domInteractive,
    bytes: nav.transferSize + files.reduce((sum, r) => sum + r.transferSize, 0),
    page_bytes: nav.transferSize,
    requests: 1 + files.length,
    files: files.map((r) => ({
      name: r.name.split("/").pop(), start: Math.round(r.startTime),
      first_byte: Math.round(r.responseStart), end: Math.round(r.responseEnd),
      bytes: r.transferSize,
    })),
  };
}"""

# The tap's floor: the least a tap on a labelled radio costs this phone.
BARE_TAPS = (
    """<!doctype html><meta name="viewport" content="width=device-width">
<form>"""
    + "".join(
        '<label style="display:inline-block;padding:12px">'
        f'<input type="radio" name="r" value="{i}"> {i}</label>'
        for i in range(5)
    )
    + """</form><p id="said">0</p>"""
)

SAVE_BYTES = """() => {
  const posts = performance.getEntriesByType("resource")
    .filter((r) => r.initiatorType === "xmlhttprequest");
  const last = posts[posts.length - 1];
  return last ? last.transferSize : 0;
}"""


def throttle(context, page, cpu: bool = True):
    cdp = context.new_cdp_session(page)
    if cpu:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLING["cpu"]})
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": THROTTLING["latency_ms"],
        "downloadThroughput": THROTTLING["down_bps"] / 8,
        "uploadThroughput": THROTTLING["up_bps"] / 8,
    })  # fmt: skip
    cdp.send("Performance.enable")
    return cdp


def down_ms(nbytes: int) -> float:
    return nbytes * 8 / THROTTLING["down_bps"] * 1000


def up_ms(nbytes: int) -> float:
    return nbytes * 8 / THROTTLING["up_bps"] * 1000


def taps_on(page, labels) -> list[float]:
    """Each tap's Event Timing duration; one under its 16 ms threshold counts as a frame."""
    page.evaluate(WATCH_TAPS)
    for label in labels:
        label.tap()
        page.wait_for_timeout(400)
    taps = page.evaluate("[...window.__taps.values()]")
    return taps + [FRAME_MS] * (len(labels) - len(taps))


def tap_floor(context) -> float:
    """The median tap on the bare page, in this run's throttled phone."""
    page = context.new_page()
    throttle(context, page)
    page.set_content(BARE_TAPS)
    page.evaluate("""() => document.querySelector("form").addEventListener("change",
      (e) => { document.getElementById("said").textContent = e.target.value; })""")
    taps = taps_on(page, [page.locator("label").nth(i) for i in range(5)])
    page.close()
    return statistics.median(taps)


def one_run(browser, base: str, game: str, watch: str, cookie: dict) -> dict:
    """A cold game page, a deal tapped in and saved, a watch link following."""
    from playwright.sync_api import expect

    phone = dict(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True,
                 ignore_https_errors=True)  # fmt: skip  # a measurement, not a test of TLS
    context = browser.new_context(**phone)
    context.add_cookies([{**cookie, "url": base}])
    page = context.new_page()
    cdp = throttle(context, page)
    page.goto(base + game, wait_until="domcontentloaded")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    loaded = page.evaluate(LOADED)
    page.locator("#entry-check .tally").wait_for()
    page.wait_for_load_state("load")

    watcher_context = browser.new_context(**phone)
    watcher = watcher_context.new_page()
    throttle(watcher_context, watcher)
    watcher.goto(base + watch)
    watcher.evaluate(WATCH_BOARD)

    page.locator("#entry-h").scroll_into_view_if_needed()
    page.wait_for_timeout(500)  # what waits for idle time has run
    # BENCH_TRACE=dir keeps a Chromium performance trace of the taps and the
    # save, to open in DevTools' Performance panel (where the time goes).
    trace = os.environ.get("BENCH_TRACE")
    if trace:
        name = f"{trace}/{base.split('://')[0]}-{len(os.listdir(trace))}.json"
        browser.start_tracing(page=page, path=name, screenshots=False)
    form = page.locator("#entry form")
    chips = [("hearts-0", 4), ("hearts-1", 3), ("taker-QS", 0), ("taker-KS", 1), ("taker-AS", 2)]
    taps = taps_on(page, [form.locator(f'label:has(input[name="{name}"][value="{value}"])')
                          for name, value in chips])  # fmt: skip
    expect(page.locator("#entry-check .tally")).to_have_text("43 of 43")

    page.evaluate(WATCH_SAVE)
    page.locator("#entry-check .save").tap()
    page.wait_for_function("() => window.__saved.shown > 0", timeout=20_000)
    saved = page.evaluate("window.__saved")
    answer = page.evaluate(SAVE_BYTES)
    if trace:
        browser.stop_tracing()
    watcher.wait_for_function("() => window.__board.changed > 0", timeout=20_000)
    seen_after = watcher.evaluate("window.__board.changed") - saved["wall"]
    bare = tap_floor(context)
    context.close()
    watcher_context.close()

    latency = THROTTLING["latency_ms"]
    body = 1200  # the entry form's fields, a key and the CSRF token, as sent
    return {
        "protocol": loaded["protocol"],
        "tap_ms": statistics.median(taps),
        "tap_floor_ms": bare,
        "save_change_ms": saved["changed"] - saved["tapped"],
        "save_in_view_ms": saved["shown"] - saved["tapped"],
        "save_floor_ms": latency + up_ms(body) + down_ms(answer) + FRAME_MS,
        "cold_ms": loaded["usable"],
        "cold_floor_ms": 2 * latency + down_ms(loaded["bytes"]),
        "cold_bytes": loaded["bytes"],
        "cold_requests": loaded["requests"],
        "page_wait_ms": loaded["wait"],
        "parsed_ms": loaded["parsed"],
        "files": loaded["files"],
        "script_ms": metrics.get("ScriptDuration", 0) * 1000,
        "layout_ms": metrics.get("LayoutDuration", 0) * 1000,
        "style_ms": metrics.get("RecalcStyleDuration", 0) * 1000,
        "task_ms": metrics.get("TaskDuration", 0) * 1000,
        "watch_ms": seen_after,
    }


def figures(straight: str, front: str, game: str, watch: str, cookie: dict, runs: int) -> dict:
    """``runs`` runs each way, in turns; medians and each figure's share of its floor."""
    from playwright.sync_api import sync_playwright

    found: dict[str, list[dict]] = {"HTTP/2, through the front": [], "HTTP/1.1, straight": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu", "--no-first-run"],
        )
        try:
            # Each worker has served the game before the first run, as at a
            # table where the app has been up a while; its first page in a
            # new process is not what a phone meets.
            for base in (front, straight):
                warm = browser.new_context(ignore_https_errors=True)
                warm.add_cookies([{**cookie, "url": base}])
                for _ in range(4):
                    warm.request.get(base + game)
                warm.close()
            for _ in range(runs):
                for name, base in (("HTTP/2, through the front", front),
                                   ("HTTP/1.1, straight", straight)):  # fmt: skip
                    found[name].append(one_run(browser, base, game, watch, cookie))
        finally:
            browser.close()
    return {"throttling": THROTTLING, "rows": {n: row(s) for n, s in found.items()}}


# Each figure: the run's key for it, the key of its floor (or a fixed floor) and its goal.
FIGURES = {
    "tap": ("tap_ms", "tap_floor_ms", 33),
    "save, totals change": ("save_change_ms", "save_floor_ms", 200),
    "save, totals in view": ("save_in_view_ms", "save_floor_ms", 300),
    "cold page usable": ("cold_ms", "cold_floor_ms", "cold"),
    "script before usable": ("script_ms", "cold_floor_ms", None),
    "watch link sees it": ("watch_ms", POLL_MS / 2, None),
}


def row(samples: list[dict]) -> dict:
    """Medians of the runs, each figure with its floor and its share of it."""

    def median(key):
        return round(statistics.median(s[key] for s in samples), 1)

    protocol = samples[0]["protocol"]
    figures = {}
    for what, (key, floor, goal) in FIGURES.items():
        floor_ms = median(floor) if isinstance(floor, str) else round(floor, 1)
        if goal == "cold":
            goal = 600 if protocol == "h2" else 750
        ms = median(key)
        figures[what] = {"ms": ms, "floor_ms": floor_ms, "of_floor": round(ms / floor_ms, 2),
                         "goal_ms": goal}  # fmt: skip
    return {
        "protocol": protocol,
        "figures": figures,
        "cold_bytes": median("cold_bytes"),
        "cold_requests": median("cold_requests"),
        "page_wait_ms": median("page_wait_ms"),
        "parsed_ms": median("parsed_ms"),
        "runs": samples,
    }


def markdown(phone: dict) -> list[str]:
    t = phone["throttling"]
    lines = [
        "",
        f"On the slow phone ({t['cpu']}× CPU, {t['latency_ms']} ms, "
        f"{t['down_bps'] / 1e6:.1f} Mbit/s, 360×640), the 60-deal game, medians of "
        f"{len(next(iter(phone['rows'].values()))['runs'])} runs each way in turns; "
        "each figure against its floor (what the throttling allows at best):",
        "",
        "| served | what the person feels | ms | floor ms | × floor | goal ms |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for served, row in phone["rows"].items():
        for what, f in row["figures"].items():
            goal = f["goal_ms"] if f["goal_ms"] is not None else "–"
            lines.append(
                f"| {served} ({row['protocol']}) | {what} | {f['ms']:.0f} | "
                f"{f['floor_ms']:.0f} | {f['of_floor']} | {goal} |"
            )
    for served, row in phone["rows"].items():
        lines.append("")
        lines.append(
            f"{served}: {row['cold_bytes'] / 1000:.1f} KB in {row['cold_requests']:.0f} "
            "requests before the page is usable; the page's first byte came "
            f"{row['page_wait_ms']:.0f} ms after it was asked for (one latency and the "
            f"server's time), the page was parsed at {row['parsed_ms']:.0f} ms."
        )
    return lines
