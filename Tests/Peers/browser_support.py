"""What the dashboard browser scripts share: Debian's headless chromium through chromedriver, checks that save a
screenshot before they fail the script, and the page's console errors."""
import os
import sys
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait


def start_chromium(height=900, extra=(), browser_log=True):
    """A headless chromium, 1280 wide, with the page's console log kept when `browser_log`."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size=1280,{height}", *extra):
        options.add_argument(arg)
    if browser_log:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # chromedriver now and then exits at start while other suites start theirs on the same two cores (the test tiers
    # run side by side): try again, at most three times, and say what it printed when it never starts.
    log = tempfile.NamedTemporaryFile(prefix="chromedriver-", suffix=".log", delete=False).name
    for attempt in range(3):
        try:
            return webdriver.Chrome(service=Service("/usr/bin/chromedriver", log_output=log), options=options)
        except WebDriverException as error:
            if attempt == 2:
                with open(log, errors="replace") as handle:
                    raise WebDriverException(f"{error.msg}\nchromedriver's log:\n{handle.read()[-2000:]}") from error
            time.sleep(1 + attempt)


class Checks:
    """`check` and `wait_for` that save `shots/failure` (a PNG name) before exiting with FAIL: message."""

    def __init__(self, driver, shots, failure, timeout=20):
        self.driver, self.shots, self.failure = driver, shots, failure
        self.wait = WebDriverWait(driver, timeout)
        os.makedirs(shots, exist_ok=True)

    def check(self, condition, message):
        if not condition:
            self.driver.save_screenshot(os.path.join(self.shots, self.failure))
            sys.exit(f"FAIL: {message}")

    def wait_for(self, predicate, message):
        try:
            self.wait.until(lambda d: predicate())
        except Exception:
            self.check(False, message)


def console_errors(driver):
    """The page's SEVERE console messages (a missing favicon aside)."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]
