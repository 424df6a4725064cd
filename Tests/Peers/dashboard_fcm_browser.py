"""Drives the dashboard of a mock serving the FCM front door (`serve --fcm`) in headless Debian chromium.

Usage: dashboard_fcm_browser.py CONTROL_URL SCREENSHOT_DIR MESSAGE_NAME TITLE
The mock has recorded one APNs push that an FCM message became (the test sent the message). Checks: the push is
listed; its detail names the FCM message, its project and registration token, says what FCM answered, and holds the
message as the sender wrote it (with TITLE); the page logs no console error. Prints {"ok": true, ...} on success.
"""
import json
import os
import sys

from browser_support import Checks, console_errors, start_chromium

control, shots, name, title = sys.argv[1:5]
driver = start_chromium()
checks = Checks(driver, shots, "fcm-failure.png")
check, wait_for = checks.check, checks.wait_for


def fcm_section():
    return driver.execute_script("return document.querySelector('[data-testid=fcm]')?.innerText || ''")


try:
    driver.get(control + "/")
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('#rows tr').length") == 1, "the push is not listed")
    driver.execute_script("document.querySelectorAll('#rows tr')[0].click()")
    wait_for(lambda: name in fcm_section(), "the detail names no FCM message: " + repr(fcm_section()))
    text = fcm_section()
    check("mockapns-test" in text, f"no project in {text!r}")
    check("FCM answered\n200" in text or "FCM ANSWERED\n200" in text.upper(), f"FCM's answer not shown: {text!r}")
    sent = driver.execute_script("return document.querySelector('#fcm-slot pre')?.textContent || ''")
    check(title in sent and '"notification"' in sent, f"the message as sent is not shown: {sent!r}")
    driver.execute_script("document.querySelector('[data-testid=fcm]').scrollIntoView()")
    driver.save_screenshot(os.path.join(shots, "fcm-detail.png"))
    errors = console_errors(driver)
    check(not errors, f"console errors: {errors}")
finally:
    driver.quit()

print(json.dumps({"ok": True, "fcm": text}))
