"""Drives the dashboard of one mock sharing a PostgreSQL store (`serve --store`) in headless Debian chromium.

Usage: dashboard_store_browser.py CONTROL_URL SCREENSHOT_DIR TOKEN_SEEN TOKEN_LATER
TOKEN_SEEN was pushed through another instance before the page opens; the page must list it (the search reads the
store). The script then prints "listening" and waits: the test pushes TOKEN_LATER through the other instance, and
the live list must show it (the stream follows the store). Opening that row shows its detail; a search for
`token:<TOKEN_LATER prefix>` leaves that row alone. Prints {"ok": true, ...} on success.
"""
import json
import sys

from browser_support import Checks, console_errors, start_chromium

control, shots, seen, later = sys.argv[1:5]
driver = start_chromium()
checks = Checks(driver, shots, "store-failure.png", timeout=30)
check, wait_for = checks.check, checks.wait_for


def rows_text():
    return driver.execute_script("return [...document.querySelectorAll('#rows tr')].map((r) => r.innerText)")


try:
    driver.get(control + "/")
    wait_for(lambda: len(rows_text()) == 1, f"the push through the other instance is not listed: {rows_text()}")
    print("listening", flush=True)
    wait_for(lambda: len(rows_text()) == 2, f"the live list did not show the later push: {rows_text()}")
    driver.save_screenshot(f"{shots}/store-list.png")
    # Newest first: the later push is the top row.
    driver.execute_script("document.querySelectorAll('#rows tr')[0].click()")
    wait_for(lambda: later in driver.execute_script("return document.querySelector('[data-testid=detail]')?.innerText || ''"),
             "the later push's detail does not show its token")
    driver.execute_script("document.getElementById('search').value = arguments[0];"
                          "document.getElementById('search-form').requestSubmit()", "token:" + later[:8])
    wait_for(lambda: len(rows_text()) == 1, f"the token search did not leave one row: {rows_text()}")
    errors = console_errors(driver)
    check(not errors, f"console errors: {errors}")
    print(json.dumps({"ok": True, "rows": rows_text()}))
finally:
    driver.quit()
