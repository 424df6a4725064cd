"""Drives the dashboard of one mock sharing a PostgreSQL store (`serve --store`) in headless Debian chromium.

Usage: dashboard_store_browser.py CONTROL_URL SCREENSHOT_DIR TOKEN_SEEN TOKEN_LATER
TOKEN_SEEN was pushed through another instance before the page opens; the page must list it (the search reads the
store). The script then prints "listening" and waits: the test pushes TOKEN_LATER through the other instance, and
the live list must show it (the stream follows the store). Opening that row shows its detail; a search for
`token:<TOKEN_LATER prefix>` leaves that row alone. Prints {"ok": true, ...} on success.
"""
import json
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

control, shots, seen, later = sys.argv[1:5]
os.makedirs(shots, exist_ok=True)

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
    options.add_argument(arg)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(driver, 30)


def check(condition, message):
    if not condition:
        driver.save_screenshot(os.path.join(shots, "store-failure.png"))
        sys.exit(f"FAIL: {message}")


def wait_for(predicate, message):
    try:
        wait.until(lambda d: predicate())
    except Exception:
        check(False, message)


def rows_text():
    return driver.execute_script("return [...document.querySelectorAll('#rows tr')].map((r) => r.innerText)")


try:
    driver.get(control + "/")
    wait_for(lambda: len(rows_text()) == 1, f"the push through the other instance is not listed: {rows_text()}")
    print("listening", flush=True)
    wait_for(lambda: len(rows_text()) == 2, f"the live list did not show the later push: {rows_text()}")
    driver.save_screenshot(os.path.join(shots, "store-list.png"))
    # Newest first: the later push is the top row.
    driver.execute_script("document.querySelectorAll('#rows tr')[0].click()")
    wait_for(lambda: later in driver.execute_script("return document.querySelector('[data-testid=detail]')?.innerText || ''"),
             "the later push's detail does not show its token")
    driver.execute_script("document.getElementById('search').value = arguments[0];"
                          "document.getElementById('search-form').requestSubmit()", "token:" + later[:8])
    wait_for(lambda: len(rows_text()) == 1, f"the token search did not leave one row: {rows_text()}")
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]
    check(not errors, f"console errors: {errors}")
    print(json.dumps({"ok": True, "rows": rows_text()}))
finally:
    driver.quit()
