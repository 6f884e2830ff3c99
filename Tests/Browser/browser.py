"""Headless Chromium through Selenium for the dashboard tests and benchmark."""
import os
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoAlertPresentException


def chromium(width=1400, height=1000):
    options = webdriver.ChromeOptions()
    for argument in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
                     '--hide-scrollbars', '--window-size=%d,%d' % (width, height), '--force-device-scale-factor=1',
                     '--disable-extensions', '--no-first-run', '--lang=en-US'):
        options.add_argument(argument)
    binary = os.environ.get('CHROMIUM', '/usr/bin/chromium')
    if os.path.exists(binary):
        options.binary_location = binary
    options.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    driver_path = os.environ.get('CHROMEDRIVER', '/usr/bin/chromedriver')
    service = Service(executable_path=driver_path) if os.path.exists(driver_path) else Service()
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    return driver


def wait_until(condition, timeout=10.0, interval=0.05, message='condition'):
    """Polls `condition()` until it returns a truthy value (returned) or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    pause = threading.Event()  # never set: wait(interval) is a bounded pause between polls
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # the page is still changing
            last_error = error
        pause.wait(interval)
    raise AssertionError('timed out after %.1f s waiting for %s%s' % (
        timeout, message, (' (last error: %s)' % last_error) if last_error else ''))


def wait_for_view(driver, view, timeout=15.0):
    """Waits until the router marks `view` rendered (`main[data-view=view][data-state=ready]`)."""
    return wait_until(lambda: driver.execute_script(
        "const m = document.getElementById('view');"
        "return m && m.dataset.view === arguments[0] && m.dataset.state !== 'loading' ? m.dataset.state : null;", view),
        timeout, message='view %s to render' % view)


def alert_text(driver):
    """The text of an open alert (and dismisses it), or None."""
    try:
        alert = driver.switch_to.alert
        text = alert.text
        alert.dismiss()
        return text
    except NoAlertPresentException:
        return None


def save_full_page(driver, path, width=1400, max_height=5000):
    """A PNG of the whole page: the window is grown to the document's height for the capture."""
    height = driver.execute_script('return Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)')
    height = max(700, min(int(height) + 10, max_height))
    original = driver.get_window_size()
    driver.execute_script('window.scrollTo(0, 0)')
    driver.set_window_size(width, height)
    next_frames(driver)  # let layout and charts settle at the new size (Chart.js resizes on a frame)
    try:  # lazy images below the old fold start loading now; give them a bounded moment
        wait_until(lambda: driver.execute_script("return [...document.images].every(i => i.complete)"), timeout=5,
                   message='images to load')
    except AssertionError:
        pass
    next_frames(driver)
    driver.save_screenshot(path)
    driver.set_window_size(original['width'], original['height'])


def next_frames(driver, count=3):
    """Returns after `count` animation frames have been painted."""
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; let n = arguments[0];"
        "const step = () => (--n <= 0 ? done(true) : requestAnimationFrame(step)); requestAnimationFrame(step);", count)
