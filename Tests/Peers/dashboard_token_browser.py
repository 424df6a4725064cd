"""Drives the dashboard in headless Debian chromium against `mockapns serve --control-token TOKEN`.

Usage: dashboard_token_browser.py CONTROL_URL APNS_URL JWT CONTROL_TOKEN SCREENSHOT_DIR
Checks: the page loads without the token but its API calls get 401 and it asks for the token; a wrong token is
refused with the server's message; after the right token, pushes sent with curl appear live (the stream is read
with fetch and carries the bearer header); a reload keeps the token (sessionStorage) and `#token=` fills it in a
fresh tab without it reaching the server. Prints {"ok": true, ...} on success.
"""
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from browser_support import start_chromium

control, apns, jwt, control_token, shots = sys.argv[1:6]
os.makedirs(shots, exist_ok=True)


def send(title):
    payload = {"aps": {"alert": {"title": title, "body": "sent while the page is open"}}}
    out = subprocess.run(["curl", "-sS", "--http2-prior-knowledge", "-o", "/dev/null", "-H", f"authorization: bearer {jwt}",
                          "-H", "apns-topic: com.example.shop", "-H", "apns-push-type: alert", "--data-binary", json.dumps(payload),
                          f"{apns}/3/device/{'aa' * 32}"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        sys.exit(f"sending failed: {out.stdout} {out.stderr}")


def check(condition, message):
    if not condition:
        driver.save_screenshot(os.path.join(shots, "token-failure.png"))
        sys.exit(f"FAIL: {message}")


def status_of(path, headers):
    request = urllib.request.Request(control + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


# Without the token: the page's files load, the data does not.
page_status = status_of("/", {})
check(page_status == 200, f"the page itself must load without the token, got {page_status}")
api_status = status_of("/api/v1/search", {})
check(api_status == 401, f"the API must answer 401 without the token, got {api_status}")
stream_status = status_of("/api/v1/stream", {})
check(stream_status == 401, f"the live stream must answer 401 without the token, got {stream_status}")

driver = start_chromium(height=900)
wait = WebDriverWait(driver, 20)


def row_texts():
    # Read in one script call: the list re-renders as records arrive, so element handles would go stale.
    return driver.execute_script("return [...document.querySelectorAll('#rows tr')].map((r) => r.innerText)")


def rows():
    return row_texts()


def wait_for(predicate, message):
    try:
        wait.until(lambda d: predicate())
    except Exception:
        check(False, message)


try:
    send("Before the page")
    driver.get(control + "/")
    wait.until(EC.visibility_of_element_located((By.ID, "token-form")))
    check(len(rows()) == 0, f"rows shown without a token: {row_texts()}")
    driver.save_screenshot(os.path.join(shots, "token-prompt.png"))

    box = driver.find_element(By.ID, "token-input")
    box.send_keys("wrong-token", Keys.ENTER)
    wait_for(lambda: driver.find_element(By.ID, "token-error").is_displayed(), "a wrong token shows no error")
    check("authorization: Bearer" in driver.find_element(By.ID, "token-error").text, "the 401's sentence is not shown")
    check(len(rows()) == 0, "rows shown with a wrong token")

    box = driver.find_element(By.ID, "token-input")
    box.send_keys(control_token, Keys.ENTER)
    wait_for(lambda: not driver.find_element(By.ID, "token-form").is_displayed(), "the prompt stays after the right token")
    wait_for(lambda: len(rows()) == 1, f"the earlier push is not listed: {row_texts()}")
    wait_for(lambda: driver.find_element(By.ID, "count-total").text == "1", "counters not loaded with the token")

    # Live over the authenticated stream.
    send("Live one")
    wait_for(lambda: len(rows()) == 2, f"live push 1 did not arrive: {row_texts()}")
    send("Live two")
    wait_for(lambda: len(rows()) == 3, f"live push 2 did not arrive: {row_texts()}")
    texts = row_texts()
    check("Live two" in texts[0] and "Live one" in texts[1] and "Before the page" in texts[2], f"rows not newest-first: {texts}")
    driver.save_screenshot(os.path.join(shots, "token-list.png"))

    # A reload in the same tab keeps the token; nothing is asked.
    driver.refresh()
    wait_for(lambda: len(rows()) == 3, f"after a reload the rows are gone: {row_texts()}")
    check(not driver.find_element(By.ID, "token-form").is_displayed(), "a reload asks for the token again")

    # A fresh tab (its own sessionStorage) opened with #token=…: no prompt, the fragment leaves the address bar.
    driver.switch_to.new_window("tab")
    driver.get(control + "/#token=" + control_token)
    wait_for(lambda: len(rows()) == 3, f"#token= did not authenticate: {row_texts()}")
    check("token=" not in driver.current_url, f"the token stays in the URL: {driver.current_url}")
    check(not driver.find_element(By.ID, "token-form").is_displayed(), "#token= still asks for the token")
    send("Live three")
    wait_for(lambda: len(rows()) == 4 and "Live three" in row_texts()[0], f"live push 3 did not arrive: {row_texts()}")

    # Only the expected 401s (before the token) show up as failed loads; no script errors.
    errors = [e["message"] for e in driver.get_log("browser")
              if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"]]
    check(not errors, f"console errors: {errors}")
finally:
    driver.quit()

print(json.dumps({"ok": True, "page": page_status, "api_without_token": api_status, "stream_without_token": stream_status}))
