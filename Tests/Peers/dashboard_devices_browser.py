"""Drives the dashboard's Devices page (the virtual iPhone) in headless Debian chromium (selenium + /usr/bin/chromedriver).

Usage: dashboard_devices_browser.py CONTROL_URL APNS_URL JWT SCREENSHOT_DIR
Pushes go to the mock's h2c listener with curl (HTTP/2 prior knowledge); device changes go to the control API. Then the
page picks the device, and the lock screen, badge, Live Activity, timeline, scrubber and controls are checked.
Exits non-zero with a message on the first failed check; prints {"ok": true, "entries": N} on success.
"""
import json
import os
import subprocess
import sys
import time
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from browser_support import Checks, console_errors, start_chromium

control, apns, jwt, shots = sys.argv[1:5]
TOKEN = "5e" * 32          # the device the page follows
OTHER = "0f" * 32          # another device, so the page has two to pick from
ACTIVITY = "a1" * 32       # the push token of a Live Activity the app on TOKEN started
TOPIC = "com.example.chat"


def send(aps, token=TOKEN, topic=TOPIC, push_type="alert", collapse_id=None):
    command = ["curl", "-sS", "--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_code}",
               "-H", f"authorization: bearer {jwt}", "-H", f"apns-topic: {topic}", "-H", f"apns-push-type: {push_type}"]
    if collapse_id:
        command += ["-H", f"apns-collapse-id: {collapse_id}"]
    command += ["--data-binary", json.dumps({"aps": aps}), f"{apns}/3/device/{token}"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if out.returncode != 0 or out.stdout != "200":
        sys.exit(f"sending {aps} failed: status {out.stdout!r} {out.stderr}")


def control_api(method, path, body):
    request = urllib.request.Request(control + path, data=json.dumps(body).encode(), method=method,
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def alert(title, body, thread, badge=None):
    aps = {"alert": {"title": title, "body": body}, "thread-id": thread}
    if badge is not None:
        aps["badge"] = badge
    return aps


# The story: a score collapsed onto its newer value, two chat messages in one thread with a badge, a message while the
# device was offline (stored by APNs, delivered when it came back), then a Live Activity gone stale.
send(alert("Score", "1-0", "match"), collapse_id="score")
send(alert("Bob", "Hi", "chat-bob", badge=1))
send(alert("Score", "2-0", "match"), collapse_id="score")
send(alert("Bob", "Dinner?", "chat-bob", badge=2))
control_api("PUT", f"/api/v1/devices/{TOKEN}", {"online": False})
send(alert("Alice", "Are you there?", "chat-alice", badge=3))
control_api("PUT", f"/api/v1/devices/{TOKEN}", {"online": True})
control_api("POST", f"/api/v1/devices/{TOKEN}/changes",
            {"change": "live_activity_started", "token": ACTIVITY, "content_state": {"score": "2-0"}})
now = int(time.time())
send({"timestamp": now, "event": "update", "content-state": {"score": "3-0", "minute": 71}, "stale-date": now - 1},
     token=ACTIVITY, topic=f"{TOPIC}.push-type.liveactivity", push_type="liveactivity")
send(alert("Elsewhere", "Another device", "misc"), token=OTHER)
EXPECTED = [("delivered", "11-delivered-online"), ("delivered", "11-delivered-online"), ("delivered", "11-delivered-online"),
            ("replaced", "14-collapse-id-replacement"), ("delivered", "11-delivered-online"), ("stored", "11-store-and-forward"),
            ("delivered", "11-delivered-on-reconnect"), ("delivered", "15-live-activity-update")]
# The same entries in the Push Notifications Console's words (device-rules §16); "" where the Console has no state.
EXPECTED_CONSOLE = ["Delivered to Device", "Delivered to Device", "Delivered to Device", "", "Delivered to Device",
                    "Stored - Device Offline", "Delivered to Device (From Storage)", "Delivered to Device"]

driver = start_chromium(height=1300)
checks = Checks(driver, shots, "devices-failure.png")
check = checks.check
# The page redraws the phone and the timeline each time it looks again: an element found just before is then stale,
# which a wait retries instead of failing.
patient = WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException, IndexError])


def wait_for(predicate, message):
    try:
        patient.until(lambda d: predicate())
    except TimeoutException:
        check(False, message() if callable(message) else message)


def find(selector):
    return driver.find_elements(By.CSS_SELECTOR, selector)


# Read in one script each: the page redraws the phone whenever it looks again, so elements held across calls go stale.
def stacks():
    """The lock screen's stacks, top to bottom: (thread, count, text)."""
    found = driver.execute_script("""return [...document.querySelectorAll("[data-testid=stack]")]
        .map((s) => [s.dataset.thread, Number(s.dataset.count), s.innerText])""")
    return [tuple(s) for s in found]


def badge():
    return driver.execute_script("""return document.querySelector("[data-testid=device-badge]")?.textContent ?? null""")


def screen_at():
    at = driver.execute_script("""return document.querySelector("[data-testid=lockscreen]")?.dataset.at ?? null""")
    return int(at) if at else None


def entries():
    return find("#timeline [data-testid=entry]")


def outcomes():
    return driver.execute_script("""return [...document.querySelectorAll("#timeline [data-testid=entry]")].map((e) => e.dataset.outcome)""")


def online():
    return driver.execute_script("""return document.querySelector("[data-testid=network]")?.dataset.online ?? null""")


def dark(on):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if on else "light"}]})


def scrub_to(keys, index, times):
    """Moves the scrubber with the keyboard; waits for the screen of entry `index` (None: now)."""
    driver.find_element(By.ID, "scrub").send_keys(*keys)
    if index is None:
        wait_for(lambda: find("#timeline .entry.current") == [] and "now" in driver.find_element(By.ID, "scrub-label").text,
                 lambda: f"the scrubber did not come to now: {driver.find_element(By.ID, 'scrub-label').text!r}")
        return
    wait_for(lambda: screen_at() == times[index] and find("#timeline .entry.current")
             and find("#timeline .entry.current")[0].get_attribute("data-index") == str(index),
             lambda: f"the scrubber did not show entry {index} (at {times[index]}); the screen is at {screen_at()}")
    current = find("#timeline .entry.current")[0]
    check(current.get_attribute("aria-current") == "step", "the highlighted entry is not aria-current")


try:
    driver.get(control + "/#devices")
    wait_for(lambda: len(find("#recent-tokens [data-token]")) == 2,
             lambda: f"recently seen tokens: {driver.find_element(By.ID, 'recent-tokens').text!r} {console_errors(driver)}")
    recent = [b.get_attribute("data-token") for b in find("#recent-tokens [data-token]")]
    check(recent == [OTHER, TOKEN], f"recently seen tokens, newest first: {recent}")
    options = [o.get_attribute("value") for o in find("#phone-tokens option")]
    check(set(options) == {TOKEN, OTHER}, f"the token box offers {options}")

    # "/" goes to this page's token box; a typed token shows that device.
    driver.find_element(By.TAG_NAME, "body").send_keys("/")
    check(driver.switch_to.active_element.get_attribute("id") == "phone-token", "/ does not focus the token box")
    driver.switch_to.active_element.send_keys("not-hex", Keys.ENTER)
    wait_for(lambda: "hexadecimal" in driver.find_element(By.ID, "phone-error").text, "a non-hex token is not refused")
    box = driver.find_element(By.ID, "phone-token")
    box.clear()
    box.send_keys(OTHER, Keys.ENTER)
    wait_for(lambda: [s[0] for s in stacks()] == ["misc"], lambda: f"the other device shows {stacks()}")
    check(not driver.find_element(By.ID, "phone-error").is_displayed(), "the error stays after a good token")

    # Picked from the recently seen: the lock screen now, stacked by thread as iOS stacks them, newest first.
    driver.find_element(By.CSS_SELECTOR, f"#recent-tokens [data-token='{TOKEN}']").click()
    wait_for(lambda: [s[0] for s in stacks()] == ["chat-alice", "chat-bob", "match"], lambda: f"stacks at now: {stacks()}")
    check(f"device={TOKEN}" in driver.current_url, f"the device is not in the URL: {driver.current_url}")
    (alice, bob, match) = stacks()
    check(alice[1] == 1 and "Are you there?" in alice[2], f"Alice's stack: {alice}")
    check(bob[1] == 2 and "Dinner?" in bob[2] and "Hi" not in bob[2] and "1 more notification" in bob[2], f"Bob's stack: {bob}")
    check(find("[data-thread=chat-bob] [data-testid=group-count]")[0].text == "2", "Bob's stack does not show its count")
    check(match[1] == 1 and "2-0" in match[2] and "1-0" not in driver.find_element(By.ID, "phone-slot").text,
          f"the collapsed score: {match}")
    check(badge() == "3", f"badge at now: {badge()}")
    check(online() == "true" and not find("[data-testid=offline-note]"), "the device shows offline")
    activity = find("[data-testid=live-activity]")
    check(len(activity) == 1 and activity[0].get_attribute("data-stale") == "true" and "3-0" in activity[0].text
          and "stale" in activity[0].text, f"the Live Activity: {[a.text for a in activity]}")
    check(driver.find_element(By.ID, "go-online").get_attribute("aria-pressed") == "true", "Online is not pressed")

    # The timeline: one entry per thing that happened to a push, each with its outcome, rule and explanation.
    wait_for(lambda: len(entries()) == len(EXPECTED), lambda: f"timeline has {len(entries())} entries")
    seen = [(e.get_attribute("data-outcome"), e.find_element(By.CSS_SELECTOR, ".rule").text) for e in entries()]
    check(seen == EXPECTED, f"timeline outcomes and rules: {seen}")
    console = driver.execute_script("""return [...document.querySelectorAll("#timeline [data-testid=entry]")].map((e) => e.dataset.console)""")
    check(console == EXPECTED_CONSOLE, f"timeline Console states: {console}")
    check("Stored - Device Offline" in entries()[5].find_element(By.CSS_SELECTOR, "[data-testid=console-state]").text,
          f"the stored entry's Console state: {entries()[5].text!r}")
    check(not find("#timeline .entry.current, #timeline .entry.later"), "at now an entry is highlighted or marked later")
    check("Score: 1-0" in entries()[3].text and "apns-collapse-id" in entries()[3].text, f"the replaced entry: {entries()[3].text!r}")
    check("Alice: Are you there?" in entries()[5].text and "offline" in entries()[5].text, f"the stored entry: {entries()[5].text!r}")
    check("Live Activity update" in entries()[7].text, f"the Live Activity entry: {entries()[7].text!r}")
    with urllib.request.urlopen(f"{control}/api/v1/devices/{TOKEN}/timeline", timeout=30) as response:
        times = [e["time"] for e in json.load(response)["entries"]]
    driver.save_screenshot(os.path.join(shots, "devices.png"))
    dark(True)
    driver.save_screenshot(os.path.join(shots, "devices-dark.png"))
    dark(False)

    # Scrubbing with the keyboard: each instant shows that instant's screen and highlights its entry.
    scrub_to([Keys.HOME], 0, times)
    check([s[0] for s in stacks()] == ["match"] and "1-0" in stacks()[0][2], f"the first instant: {stacks()}")
    check(badge() is None and not find("[data-testid=live-activity]"), f"badge or activity before any: {badge()}")
    check(all("later" in e.get_attribute("class") for e in entries()[1:]), "later entries are not marked")
    scrub_to([Keys.ARROW_RIGHT], 1, times)
    check([(s[0], s[1]) for s in stacks()] == [("chat-bob", 1), ("match", 1)] and "Hi" in stacks()[0][2] and "1-0" in stacks()[1][2],
          f"the second instant: {stacks()}")
    check(badge() == "1", f"badge at the second instant: {badge()}")
    scrub_to([Keys.ARROW_RIGHT] * 4, 5, times)
    check(online() == "false", "the offline instant shows online")
    check("storing 1 push" in find("[data-testid=offline-note]")[0].text, "the offline note")
    check("Alice: Are you there?" in driver.find_element(By.CSS_SELECTOR, "[data-testid=stored]").text, "the stored push is not listed")
    check([s[0] for s in stacks()] == ["chat-bob", "match"] and badge() == "2", f"the offline instant: {stacks()} badge {badge()}")
    check(driver.find_element(By.CSS_SELECTOR, "[data-testid=instant-network]").text == "offline", "the instant panel")
    check(all(b.get_attribute("disabled") for b in find("[data-testid=lock-notification]")), "a past notification can be tapped")
    driver.save_screenshot(os.path.join(shots, "devices-offline.png"))
    driver.find_element(By.CSS_SELECTOR, "#timeline .entry[data-index='3'] .at").click()
    wait_for(lambda: screen_at() == times[3], "clicking an entry's time does not show its instant")
    check([(s[0], s[1]) for s in stacks()] == [("match", 1), ("chat-bob", 1)] and "2-0" in stacks()[0][2], f"after the replacement: {stacks()}")
    scrub_to([Keys.END], None, times)
    wait_for(lambda: badge() == "3" and len(stacks()) == 3, lambda: f"back at now: {stacks()} badge {badge()}")
    # k and j (as in the list of pushes) step back and forth through the timeline from anywhere on the page.
    driver.execute_script("document.activeElement.blur()")
    ActionChains(driver).send_keys("k").perform()
    wait_for(lambda: screen_at() == times[-1] and driver.execute_script(
        "return document.querySelector('#timeline .entry.current')?.dataset.index") == str(len(times) - 1), "k did not step back")
    ActionChains(driver).send_keys("j").perform()
    wait_for(lambda: not find("#timeline .entry.current") and badge() == "3", "j did not step forward to now")

    # A stack expands to its notifications, newest on top.
    more = driver.find_element(By.CSS_SELECTOR, "[data-thread=chat-bob] .more")
    check(more.get_attribute("aria-expanded") == "false", "the stack toggle is not aria-expanded=false")
    more.send_keys(Keys.ENTER)
    wait_for(lambda: len(find("[data-thread=chat-bob] [data-testid=lock-notification]")) == 2, "the stack does not expand")
    cards = [c.text for c in find("[data-thread=chat-bob] [data-testid=lock-notification]")]
    check("Dinner?" in cards[0] and "Hi" in cards[1], f"expanded stack order: {cards}")
    check(driver.switch_to.active_element.get_attribute("aria-expanded") == "true", "focus left the stack toggle")

    # The controls change the device now: offline (a push sent meanwhile is stored), online (delivered), app state.
    driver.find_element(By.ID, "go-offline").click()
    wait_for(lambda: online() == "false"
             and driver.find_element(By.ID, "go-offline").get_attribute("aria-pressed") == "true", "Offline did not take effect")
    send(alert("Carol", "Ping", "chat-carol"))
    wait_for(lambda: "Carol: Ping" in driver.find_element(By.ID, "stored").text, "the push sent while offline is not shown as stored")
    wait_for(lambda: outcomes()[-1] == "stored", lambda: f"no stored entry for it: {outcomes()}")
    driver.find_element(By.ID, "go-online").click()
    wait_for(lambda: stacks() and stacks()[0][0] == "chat-carol", lambda: f"back online, Carol's push is not on top: {stacks()}")
    check(entries()[-1].find_element(By.CSS_SELECTOR, ".rule").text == "11-delivered-on-reconnect", "not delivered on reconnect")
    Select(driver.find_element(By.ID, "app-state")).select_by_value("background")
    wait_for(lambda: driver.execute_script("return document.querySelector('[data-testid=instant-app]').textContent") == "background",
             "the app state did not change")

    # A tap (rule 5) opens the notification: it leaves Notification Center and the timeline says so.
    driver.find_element(By.CSS_SELECTOR, "[data-thread=chat-carol] [data-testid=lock-notification]").click()
    wait_for(lambda: outcomes()[-1] == "tapped", lambda: f"the tap is not on the timeline: {outcomes()}")
    wait_for(lambda: "chat-carol" not in [s[0] for s in stacks()], lambda: f"the tapped notification stays: {stacks()}")

    errors = [e for e in console_errors(driver) if "Failed to load resource" not in e]
    check(not errors, f"console errors: {errors}")
    count = len(entries())
finally:
    driver.quit()

print(json.dumps({"ok": True, "entries": count}))
