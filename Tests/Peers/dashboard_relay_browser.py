"""Drives the dashboard of a relaying mock (`serve --relay`) in headless Debian chromium.

Usage: dashboard_relay_browser.py CONTROL_URL SCREENSHOT_DIR
The mock has recorded two relayed pushes (the test sent them): one the upstream accepted, one it answered
410 Unregistered while the mock said 200. Checks: opening each shows the mock's verdict beside the upstream's; the
disagreeing status row is marked, the agreeing one is not; each record's webhook delivery state is shown.
Prints {"ok": true, ...} on success.
"""
import json
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

control, shots = sys.argv[1:3]
os.makedirs(shots, exist_ok=True)

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
    options.add_argument(arg)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(driver, 20)


def check(condition, message):
    if not condition:
        driver.save_screenshot(os.path.join(shots, "relay-failure.png"))
        sys.exit(f"FAIL: {message}")


def wait_for(predicate, message):
    try:
        wait.until(lambda d: predicate())
    except Exception:
        check(False, message)


def comparison():
    # Rows of the comparison table as [name, mock, upstream, marked]; read in one script call.
    return driver.execute_script("""
        const table = document.querySelector('[data-testid=relay]');
        if (!table) return null;
        return [...table.querySelectorAll('tbody tr')].map((r) => [...r.children].map((c) => c.innerText).concat([r.classList.contains('differs')]));
    """)


def open_row(index):
    # Rows are newest first; the token column is hidden while a detail is open, so rows are picked by position.
    driver.execute_script("document.querySelectorAll('#rows tr')[arguments[0]].click()", index)


try:
    driver.get(control + "/")
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('#rows tr').length") == 2, "the two pushes are not listed")
    found = {}
    for index, label, token in ((1, "agreed", "ab" * 32), (0, "disagreed", "cd" * 32)):
        open_row(index)
        wait_for(lambda: token in driver.execute_script("return document.querySelector('[data-testid=detail]')?.innerText || ''")
                 and comparison() is not None, f"no mock/upstream comparison for the {label} push")
        # Header cells are shown upper-case by the style sheet: compare names in lower case.
        found[label] = {row[0].lower(): row[1:] for row in comparison()}
        driver.save_screenshot(os.path.join(shots, f"relay-{label}.png"))
        headers = driver.execute_script("return document.querySelector('[data-testid=detail]').innerText")
        check("authorization" in headers.lower(), "the detail shows no authorization header")
        # The webhook (nobody listens) failed this record: the detail says so.
        wait_for(lambda: "failed" in (driver.execute_script("return document.querySelector('[data-testid=webhooks]')?.innerText || ''")),
                 f"no failed webhook delivery shown for the {label} push: " + repr(driver.execute_script("const s = document.getElementById('webhooks-slot'); return s ? s.outerHTML.slice(0, 400) : 'no slot'")))
    agreed, disagreed = found["agreed"]["status"], found["disagreed"]["status"]
    check(agreed[0] == "200" and agreed[1] == "200" and agreed[2] is False, f"agreeing status row wrong: {agreed}")
    check(disagreed[0] == "200" and disagreed[1] == "410 Unregistered" and disagreed[2] is True,
          f"disagreeing status row wrong or not marked: {disagreed}")
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]
    check(not errors, f"console errors: {errors}")
finally:
    driver.quit()

print(json.dumps({"ok": True, "agreed": found.get("agreed", {}).get("status"), "disagreed": found.get("disagreed", {}).get("status")}))
