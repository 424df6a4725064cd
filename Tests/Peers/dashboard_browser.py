"""Drives the dashboard in headless Debian chromium (selenium + /usr/bin/chromedriver).

Usage: dashboard_browser.py CONTROL_URL APNS_URL JWT SCREENSHOT_DIR
Pushes go to the mock's h2c listener with curl (HTTP/2 prior knowledge) while the page is open.
Exits non-zero with a message on the first failed check; prints {"ok": true, "foreign_host": 403, "foreign_origin": 403} on success.
"""
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from browser_support import start_chromium

control, apns, jwt, shots = sys.argv[1:5]
os.makedirs(shots, exist_ok=True)
TOKEN_A = "aa" * 32
TOKEN_B = "bb" * 32


def send(payload, token=TOKEN_A, topic="com.example.shop", push_type="alert"):
    out = subprocess.run(["curl", "-sS", "--http2-prior-knowledge", "-o", "/dev/null", "-H", f"authorization: bearer {jwt}",
                          "-H", f"apns-topic: {topic}", "-H", f"apns-push-type: {push_type}", "--data-binary", json.dumps(payload),
                          f"{apns}/3/device/{token}"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        sys.exit(f"sending failed: {out.stdout} {out.stderr}")


def check(condition, message):
    if not condition:
        driver.save_screenshot(os.path.join(shots, "failure.png"))
        sys.exit(f"FAIL: {message}")


driver = start_chromium(height=1000)
wait = WebDriverWait(driver, 20)


def rows():
    return driver.find_elements(By.CSS_SELECTOR, "#rows tr")


def row_texts():
    # Read in one script call: the list re-renders as records and search results arrive, so element handles read one
    # by one can go stale between two reads.
    return driver.execute_script("return [...document.querySelectorAll('#rows tr')].map((r) => r.innerText)")


def click_row(index, shows):
    """Clicks row `index` once it shows `shows`: the list may render the same answer again (a live update, the search
    box's own input event), which replaces the element between finding and clicking it."""
    for _ in range(20):
        try:
            row = rows()[index]
            if shows in row.text:
                row.click()
                return
        except (StaleElementReferenceException, IndexError):
            pass
        time.sleep(0.1)
    check(False, f"row {index} never showed {shows!r} long enough to click: {row_texts()}")


def wait_rows(count, first=None):
    """Until the list has `count` rows (and, given `first`, its first row shows that text): a search answer replaces
    the rows, so the count alone can still be the previous result's."""
    try:
        wait.until(lambda d: len(texts := row_texts()) == count and (first is None or first in texts[0]))
    except Exception:
        check(False, f"expected {count} rows{'' if first is None else f', the first showing {first!r}'}, saw {row_texts()}")


def dark(on):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if on else "light"}]})


try:
    driver.get(control + "/")
    check("MockAPNs" in driver.title, f"title is {driver.title!r}")
    wait.until(EC.presence_of_element_located((By.ID, "empty")))
    check(len(rows()) == 0 and driver.find_element(By.ID, "empty").is_displayed(), "list not empty at start")

    # Live: pushes sent while the page is open appear, newest first, with their status chips.
    send({"aps": {"alert": {"title": "Order shipped", "body": "Order 42 is on its way"}, "badge": 3, "thread-id": "orders"}})
    wait_rows(1)
    send({"aps": {"content-available": 1}}, push_type="background")
    wait_rows(2)
    send({"aps": {"alert": {"title": "Wrong device", "body": "x"}}}, token="zz12")   # not hex: 400 BadDeviceToken
    wait_rows(3)
    send({"aps": {"alert": {"title": "Payment failed", "body": "Tap to retry"}}, "inAppSymbol": "creditcard.trianglebadge.exclamationmark",
          "inAppColor": "#FF3B30", "inAppSize": "compact", "inAppHaptics": "error"}, token=TOKEN_B)
    wait_rows(4)
    texts = row_texts()
    check("Payment failed" in texts[0] and "Wrong device" in texts[1] and "silent" in texts[2] and "Order shipped" in texts[3],
          f"rows not newest-first: {texts}")
    chips = [r.find_element(By.CSS_SELECTOR, ".chip") for r in rows()]
    check(chips[1].text.startswith("400") and "BadDeviceToken" in chips[1].text and "bad" in chips[1].get_attribute("class"),
          f"rejected chip is {chips[1].text!r}")
    check(chips[0].text == "200" and "ok" in chips[0].get_attribute("class"), f"accepted chip is {chips[0].text!r}")
    wait.until(lambda d: d.find_element(By.ID, "count-total").text == "4")
    check(driver.find_element(By.ID, "count-rejected").text == "1", "rejected counter")
    driver.save_screenshot(os.path.join(shots, "list-light.png"))
    dark(True)
    driver.save_screenshot(os.path.join(shots, "list-dark.png"))
    dark(False)

    # Search: applied by the server, held in the URL.
    box = driver.find_element(By.ID, "search")
    box.send_keys("-status:200", Keys.ENTER)
    wait_rows(1, first="Wrong device")
    check("q=-status%3A200" in driver.current_url, f"query not in the URL: {driver.current_url}")
    box.clear()
    box.send_keys("type:background", Keys.ENTER)
    wait_rows(1, first="silent")
    box.clear()
    box.send_keys("bogus:1", Keys.ENTER)
    wait.until(lambda d: d.find_element(By.ID, "search-error").is_displayed())
    check("Unknown search field" in driver.find_element(By.ID, "search-error").text, "bad query error not shown")
    box.clear()
    box.send_keys("has:inAppSymbol", Keys.ENTER)
    wait_rows(1, first="Payment failed")

    # Detail of the in-app-routed push: the rendered in-app notification, then the app-state switch.
    click_row(0, "Payment failed")
    inapp = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=inapp]")))
    check(inapp.get_attribute("data-symbol") == "creditcard.trianglebadge.exclamationmark", "in-app symbol")
    check(inapp.get_attribute("data-color") == "#FF3B30" and inapp.get_attribute("data-size") == "compact", "in-app colour/size")
    check(inapp.value_of_css_property("background-color") in ("rgba(255, 59, 48, 1)", "rgb(255, 59, 48)"),
          f"swatch colour {inapp.value_of_css_property('background-color')}")
    driver.find_element(By.CSS_SELECTOR, "#state-switch [data-state=background]").click()
    card = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=notification]")))
    check("Payment failed" in card.text and "SHOP" in card.text, f"background banner is {card.text!r}")
    box.clear()
    box.send_keys(Keys.ENTER)
    wait_rows(4)
    driver.save_screenshot(os.path.join(shots, "detail-light.png"))
    dark(True)
    driver.save_screenshot(os.path.join(shots, "detail-dark.png"))
    dark(False)
    driver.find_element(By.CSS_SELECTOR, "#auth-switch [data-auth=denied]").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=nothing]")))
    driver.find_element(By.CSS_SELECTOR, "#auth-switch [data-auth=authorized]").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=notification]")))

    # Keyboard: / focuses the search box.
    driver.find_element(By.TAG_NAME, "body").click()
    driver.find_element(By.TAG_NAME, "body").send_keys("/")
    check(driver.switch_to.active_element.get_attribute("id") == "search", "/ does not focus the search")
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    driver.find_element(By.TAG_NAME, "body").send_keys("j")
    wait.until(lambda d: "Wrong device" in d.find_element(By.CSS_SELECTOR, "[data-testid=detail] h2").text)
    check("selected" in rows()[1].get_attribute("class"), "j did not move the selection down")
    driver.find_element(By.TAG_NAME, "body").send_keys("k")
    wait.until(lambda d: "Payment failed" in d.find_element(By.CSS_SELECTOR, "[data-testid=detail] h2").text)

    # Faults: add one from the form; the next push is rejected with it.
    driver.get(control + "/#faults")
    form = wait.until(EC.visibility_of_element_located((By.ID, "fault-form")))
    form.find_element(By.NAME, "name").send_keys("apns down")
    status = form.find_element(By.NAME, "status")
    status.clear()
    status.send_keys("503")
    reason = form.find_element(By.NAME, "reason")
    reason.clear()
    reason.send_keys("ServiceUnavailable")
    form.find_element(By.NAME, "count").send_keys("1")
    form.find_element(By.TAG_NAME, "button").click()
    wait.until(lambda d: "apns down" in d.find_element(By.ID, "fault-rows").text)
    driver.get(control + "/#pushes")
    wait_rows(4)
    send({"aps": {"alert": {"title": "During the outage", "body": "x"}}})
    wait_rows(5, first="During the outage")
    chip = rows()[0].find_element(By.CSS_SELECTOR, ".chip").text
    check(chip.startswith("503") and "ServiceUnavailable" in chip, f"faulted push chip is {chip!r}")

    # Send a test push from the form: linted as typed, sent over HTTP/2 with the bundled key, listed live.
    driver.get(control + "/#send")
    form = wait.until(EC.visibility_of_element_located((By.ID, "send-form")))
    payload = form.find_element(By.NAME, "payload")
    payload.clear()
    payload.send_keys('{"aps":{"alert":{"title":"From the form","body":"hi"},"badge":"7"}}')
    wait.until(lambda d: "badge-not-integer" in d.find_element(By.ID, "send-lint").text)
    form.find_element(By.CSS_SELECTOR, "button").click()
    wait.until(lambda d: d.find_element(By.ID, "send-result").text.startswith("200"))
    driver.get(control + "/#pushes")
    wait_rows(6, first="From the form")
    driver.set_window_size(390, 844)
    driver.save_screenshot(os.path.join(shots, "list-phone.png"))

    # No script errors along the way (answers the page expects, like the 400 for a bad query, are not errors).
    errors = [e["message"] for e in driver.get_log("browser")
              if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"]]
    check(not errors, f"console errors: {errors}")
finally:
    driver.quit()

# The control plane's Host/Origin guard: a rebinding name (foreign Host) and a foreign page (foreign Origin on the
# right Host) are both refused with 403; the page's own same-origin calls above went through.
def status_of(headers):
    request = urllib.request.Request(control + "/api/v1/stats", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code

foreign_host = status_of({"Host": "evil.example"})
check(foreign_host == 403, f"a foreign Host must get 403, got {foreign_host}")
foreign_origin = status_of({"Origin": "http://evil.example"})
check(foreign_origin == 403, f"a foreign Origin must get 403, got {foreign_origin}")
print(json.dumps({"ok": True, "foreign_host": foreign_host, "foreign_origin": foreign_origin}))
