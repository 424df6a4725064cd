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

from browser_support import Checks, console_errors, start_chromium

control, shots = sys.argv[1:3]
driver = start_chromium()
checks = Checks(driver, shots, "relay-failure.png")
check, wait_for = checks.check, checks.wait_for


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
    errors = console_errors(driver)
    check(not errors, f"console errors: {errors}")
finally:
    driver.quit()

print(json.dumps({"ok": True, "agreed": found.get("agreed", {}).get("status"), "disagreed": found.get("disagreed", {}).get("status")}))
