"""The dashboard under load, in headless Debian chromium (selenium + /usr/bin/chromedriver).

Usage: dashboard_load.py CONTROL_URL APNS_URL JWT PUSHES
With the page open, h2load sends PUSHES pushes at full speed (h2c, each to its own device token). While they
arrive and after, it measures how long the page takes to answer a trivial script, the number of DOM elements, the
JS heap, and how often the page asked for /api/v1/stats; then it reloads the page and checks the first page of
pushes is requested once. Exits non-zero with a message on a failed check; prints the figures as JSON.
"""
import json
import subprocess
import sys
import tempfile
import threading
import time

from selenium.webdriver.common.by import By

from browser_support import start_chromium

control, apns, jwt, pushes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
MAX_ROWS = 200   # app.js keeps at most this many rows


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)


def h2load(count):
    """Sends `count` pushes, each to its own token; returns req/s."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as uris:
        for i in range(count):
            uris.write(f"{apns}/3/device/{i:064x}\n")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as body:
        body.write('{"aps":{"alert":{"title":"Load","body":"A push in a burst"}}}')
    out = subprocess.run(["h2load", "-n", str(count), "-c", "4", "-m", "100", "-i", uris.name, "-d", body.name,
                          "-H", f"authorization: bearer {jwt}", "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert"],
                         capture_output=True, text=True, timeout=600)
    if f"status codes: {count} 2xx" not in out.stdout:
        fail(f"h2load: {out.stdout} {out.stderr}")
    line = next(l for l in out.stdout.splitlines() if l.startswith("finished in"))
    return float(line.split(",")[1].split()[0])


# Counts the page's API requests by path, from the first script on.
COUNT_FETCHES = """
window.__fetches = [];
const original = window.fetch;
window.fetch = function (input, init) {
  const url = typeof input === "string" ? input : input.url;
  window.__fetches.push([performance.now(), new URL(url, location.href).pathname]);
  return original.apply(this, arguments);
};
"""

driver = start_chromium(height=1000, extra=("--enable-precise-memory-info",), browser_log=False)
driver.set_script_timeout(120)
figures = {}
try:
    baseline_rate = h2load(pushes)   # the mock alone, for the throughput ratio
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_FETCHES})
    driver.get(control + "/")
    time.sleep(1)

    def probe():
        started = time.monotonic()
        elements, heap = driver.execute_script(
            "return [document.getElementsByTagName('*').length, performance.memory.usedJSHeapSize]")
        return time.monotonic() - started, elements, heap

    samples = []
    started = time.monotonic()
    rate_box = {}
    sender = threading.Thread(target=lambda: rate_box.update(rate=h2load(pushes)))
    sender.start()
    while sender.is_alive():
        samples.append(probe())
        time.sleep(0.25)
    sender.join()
    burst_seconds = time.monotonic() - started
    total = 2 * pushes
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if driver.find_element(By.ID, "count-total").text == str(total):
            break
        samples.append(probe())
        time.sleep(0.25)
    else:
        fail(f"counters never reached {total}: {driver.find_element(By.ID, 'count-total').text}")
    settled = time.monotonic() - started
    after = probe()
    rows = len(driver.find_elements(By.CSS_SELECTOR, "#rows tr"))
    fetches = driver.execute_script("return window.__fetches")
    stats = [t for t, path in fetches if path == "/api/v1/stats"]
    figures = {
        "pushes": pushes,
        "script_latency_max_s": round(max(s[0] for s in samples + [after]), 3),
        "script_latency_after_s": round(after[0], 3),
        "dom_elements_max": max(s[1] for s in samples + [after]),
        "heap_mb_max": round(max(s[2] for s in samples + [after]) / 1e6, 1),
        "rows": rows,
        "stats_requests": len(stats),
        "stats_per_second": round(len(stats) / max(settled, 1), 2),
        "burst_seconds": round(burst_seconds, 2),
        "throughput_without_page": baseline_rate,
        "throughput_with_page": rate_box["rate"],
        "throughput_ratio": round(rate_box["rate"] / baseline_rate, 2),
    }
    if rows > MAX_ROWS:
        fail(f"{rows} rows in the DOM, more than {MAX_ROWS}")
    if figures["dom_elements_max"] > 5000:
        fail(f"DOM grew to {figures['dom_elements_max']} elements")
    if figures["heap_mb_max"] > 100:
        fail(f"JS heap grew to {figures['heap_mb_max']} MB")
    # At most two a second by design, plus the first and the trailing one.
    if len(stats) > 2 * settled + 3:
        fail(f"{len(stats)} stats requests in {settled:.1f} s")
    newest = driver.find_element(By.CSS_SELECTOR, "#rows tr").get_attribute("data-seq")
    if newest != str(total):
        fail(f"the newest row is #{newest}, not #{total}")
    if figures["script_latency_max_s"] > 30:
        fail(f"the page froze: a script took {figures['script_latency_max_s']} s")

    # Opening the page on a full mock: the first page is asked for once, and shows its rows.
    opened = time.monotonic()
    driver.get(control + "/")
    while len(driver.find_elements(By.CSS_SELECTOR, "#rows tr")) < 100:
        if time.monotonic() - opened > 60:
            fail("the first page never showed 100 rows")
        time.sleep(0.02)
    figures["first_rows_s"] = round(time.monotonic() - opened, 2)
    time.sleep(1)
    searches = [p for _, p in driver.execute_script("return window.__fetches") if p == "/api/v1/search"]
    figures["first_page_requests"] = len(searches)
    if len(searches) != 1:
        fail(f"the first page was requested {len(searches)} times")
    print(json.dumps({"ok": True, **figures}), flush=True)
finally:
    driver.quit()
