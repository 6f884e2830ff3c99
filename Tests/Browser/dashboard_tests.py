"""Browser tests of the Failscope dashboard: headless Chromium against a live, seeded service.

Run by scripts/browser-tests.sh, which starts `failscope serve`, seeds it with the sample UI suite
through the reporter, and sets FAILSCOPE_TEST_URL, FAILSCOPE_TEST_TOKEN and FAILSCOPE_TEST_OUTPUT.
This file seeds the API-posted runs (hostile strings, a large run), then runs every test and
prints `N passed, M failed`; exit status 1 when any test failed.
"""
import datetime
import json
import os
import re
import sys
import time
import traceback
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import seed
import seed_errors
from browser import alert_text, chromium, next_frames, save_full_page, wait_for_view, wait_until

BASE = os.environ['FAILSCOPE_TEST_URL'].rstrip('/')
TOKEN = os.environ['FAILSCOPE_TEST_TOKEN']
READ_TOKEN = os.environ.get('FAILSCOPE_TEST_READ_TOKEN', '')
OUTPUT = os.environ.get('FAILSCOPE_TEST_OUTPUT', 'test-output/browser')
MAIN_RUN = os.environ.get('FAILSCOPE_TEST_MAIN_RUN', 'browser-main')
SECOND_RUN = os.environ.get('FAILSCOPE_TEST_SECOND_RUN', 'browser-feature')
LARGE_RUN = 'large-1500'
LARGE_COUNT = 1500
UNIT_RUN = 'unit-run'

TESTS = []


def test(function):
    TESTS.append(function)
    return function


class Context:
    def __init__(self, driver, api):
        self.driver = driver
        self.api = api
        self.allowed_console = []  # regexes of console errors a test expects (a 404 it asked for)
        self.console_errors = []

    def open(self, hash_route, view):
        self.driver.get(BASE + '/' + hash_route)
        return wait_for_view(self.driver, view)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def shot(self, name):
        os.makedirs(OUTPUT, exist_ok=True)
        save_full_page(self.driver, os.path.join(OUTPUT, name))


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def equal(actual, expected, what):
    if actual != expected:
        raise AssertionError('%s: expected %r, got %r' % (what, expected, actual))


def near(actual, expected, tolerance, what):
    if abs(actual - expected) > tolerance:
        raise AssertionError('%s: expected %.2f ± %.2f, got %.2f' % (what, expected, tolerance, actual))


def run_results(detail):
    """(result, page, callSite) of a run detail in API order."""
    for group in detail['pages']:
        for site in group['callSites']:
            for result in site['results']:
                yield result, group.get('page'), site.get('callSite')


def location(loc):
    return '%s:%d' % (loc['file'].split('/')[-1], loc['line']) if loc else None


# MARK: Read token


@test
def read_token_prompt_unlocks_the_dashboard(ctx):
    """Runs first: the service needs a read token, the dashboard asks for it and keeps it."""
    if not READ_TOKEN:
        return
    ctx.allowed_console.append(re.compile(r'/api/v1/runs.* 401'))
    ctx.allowed_console.append(re.compile(r'/favicon\.ico .*404'))  # asked for by the image document below
    ctx.driver.get(BASE + '/favicon.svg')
    ctx.js("localStorage.removeItem('failscope.readToken')")
    state = ctx.open('#/runs', 'runs')
    equal(state, 'error', 'view state without a token')
    field = ctx.driver.find_element(By.CSS_SELECTOR, '.token-form input')
    field.send_keys(READ_TOKEN)
    field.submit()
    wait_until(lambda: ctx.js("const m = document.getElementById('view'); return m.dataset.state === 'ready' && m.dataset.view === 'runs'"),
               message='the runs view after entering the token')
    check(ctx.driver.find_elements(By.CSS_SELECTOR, 'tr.run-row'), 'runs listed with the token')


# MARK: Runs


@test
def runs_view_lists_every_run_with_counts_and_a_trend_chart(ctx):
    runs = ctx.api.get('/api/v1/runs?limit=50')['runs']
    ctx.open('#/runs', 'runs')
    rows = ctx.driver.find_elements(By.CSS_SELECTOR, 'tr.run-row')
    equal([r.get_attribute('data-run-id') for r in rows], [r['run']['id'] for r in runs], 'run rows, newest first')
    main = next(r for r in runs if r['run']['id'] == MAIN_RUN)
    row = ctx.driver.find_element(By.CSS_SELECTOR, 'tr.run-row[data-run-id="%s"]' % MAIN_RUN)
    text = row.text
    check('main' in text, 'branch shown in %r' % text)
    check(main['run']['commit'][:8] in text, 'short commit shown in %r' % text)
    check('iPhone 15' in text, 'device shown')
    check('%d failed' % main['counts']['failed'] in text, 'failed count shown in %r' % text)
    second = ctx.driver.find_element(By.CSS_SELECTOR, 'tr.run-row[data-run-id="%s"]' % SECOND_RUN).text
    check('iPhone SE' in second and 'feature/login' in second, 'second run device and branch: %r' % second)
    wait_until(lambda: ctx.js("return document.querySelector('.chart-box').dataset.chart") == 'drawn',
               message='the pass-rate chart to be drawn by Chart.js')
    ctx.shot('01-runs.png')

    # Filters are in the URL and go to the API.
    ctx.open('#/runs?branch=feature%2Flogin', 'runs')
    rows = ctx.driver.find_elements(By.CSS_SELECTOR, 'tr.run-row')
    equal([r.get_attribute('data-run-id') for r in rows], [SECOND_RUN], 'runs on branch feature/login')
    ctx.open('#/runs?project=nothing-here', 'runs')
    check(ctx.js("return !!document.querySelector('[data-state=empty]')"), 'empty state for a filter without runs')


@test
def runs_view_loads_older_runs_with_the_cursor(ctx):
    runs = ctx.api.get('/api/v1/runs?limit=200')['runs']
    check(len(runs) >= 3, 'enough runs to page')
    ctx.open('#/runs?limit=2', 'runs')
    shown = lambda: ctx.js("return [...document.querySelectorAll('tr.run-row')].map(r => r.dataset.runId)")
    equal(shown(), [r['run']['id'] for r in runs[:2]], 'first page of 2')
    while len(shown()) < len(runs):
        before = len(shown())
        ctx.driver.find_element(By.XPATH, "//button[normalize-space()='Load older runs']").click()
        wait_until(lambda: len(shown()) > before, message='older runs to load')
    equal(shown(), [r['run']['id'] for r in runs], 'every run, newest first, after paging')
    check('all shown' in ctx.driver.find_element(By.CSS_SELECTOR, '.more-row').text, 'end of the list said')


# MARK: Run


@test
def runs_to_run_shows_failures_grouped_by_page_then_call_site(ctx):
    detail = ctx.api.get('/api/v1/runs/' + MAIN_RUN)
    failing = [(r, p, c) for r, p, c in run_results(detail) if r['status'] in ('failed', 'error')]
    check(failing, 'the seeded suite run has failures')
    ctx.open('#/runs', 'runs')
    ctx.driver.find_element(By.CSS_SELECTOR, 'tr.run-row[data-run-id="%s"] a.run-link' % MAIN_RUN).click()
    wait_for_view(ctx.driver, 'run')
    equal(ctx.js('return location.hash'), '#/runs/' + MAIN_RUN, 'URL of the run view')

    cards = ctx.driver.find_elements(By.CSS_SELECTOR, '.failure-card')
    equal(sorted(int(c.get_attribute('data-result-id')) for c in cards), sorted(r['id'] for r, _, _ in failing),
          'one card per failing result')
    # Page groups in the API's order (most failing first), each card under its page and call site.
    expected_pages = []
    for _, page, _ in failing:
        if (page or '(no page)') not in expected_pages:
            expected_pages.append(page or '(no page)')
    groups = ctx.js("return [...document.querySelectorAll('.page-group')].map(g => g.dataset.page)")
    equal(groups, expected_pages, 'page groups')
    for result, page, call_site in failing:
        where = ctx.js("""
            const card = document.querySelector('.failure-card[data-result-id="' + arguments[0] + '"]');
            return {page: card.closest('.page-group').dataset.page,
                    site: card.closest('.callsite-group').querySelector('.callsite').textContent,
                    name: card.querySelector('.test-name').textContent,
                    message: (card.querySelector('.message') || {}).textContent || null,
                    thumb: (card.querySelector('.thumb img') || {}).src || null};""", result['id'])
        equal(where['page'], page or '(no page)', 'page of result %d' % result['id'])
        equal(where['site'], location(call_site), 'call site of result %d' % result['id'])
        equal(where['name'], result['name'], 'test name of result %d' % result['id'])
        equal(where['message'], result.get('message'), 'message of result %d' % result['id'])
        if result.get('screenshot'):
            equal(where['thumb'], BASE + '/artifacts/%s.png' % result['screenshot'], 'thumbnail of %d' % result['id'])
    # The action (LoginPage.tapLogin()) arrives for the visible cards.
    wait_until(lambda: ctx.js("return [...document.querySelectorAll('.failure-card .action')]"
                              ".some(a => /^[A-Za-z]+Page\\.[A-Za-z]+\\(/.test(a.textContent))"),
               message='an action like CatalogPage.verifyShown() on a card')

    # Passed tests are collapsed; the chip opens them; search narrows.
    passed = [r for r, _, _ in run_results(detail) if r['status'] == 'passed']
    check(not ctx.js("return document.querySelector('details[data-status=passed]').open"), 'passed collapsed')
    skipped = [r for r, _, _ in run_results(detail) if r['status'] == 'skipped']
    equal(ctx.js("return [...document.querySelectorAll('details.collapsed-results')].map(d => [d.dataset.status, d.open,"
                 " +d.querySelector('summary .badge').textContent])"),
          [[status, False, n] for status, n in (('passed', len(passed)), ('skipped', len(skipped))) if n],
          'collapsed sections with their counts')
    ctx.shot('02-run.png')
    ctx.driver.find_element(By.CSS_SELECTOR, '.chip-passed').click()
    # The view asked for the failing results first; the Passed filter loads the whole run, then shows them.
    wait_until(lambda: ctx.js("return document.querySelectorAll('details[data-status=passed] tbody tr').length") == len(passed),
               message='the %d passed rows after the Passed filter' % len(passed))
    equal(ctx.js('return location.hash'), '#/runs/%s?status=passed' % MAIN_RUN, 'filter in the URL')
    ctx.driver.find_element(By.CSS_SELECTOR, '.chips .chip:first-child').click()
    search = ctx.driver.find_element(By.CSS_SELECTOR, 'input.search')
    search.send_keys('LoginPage')
    wait_until(lambda: 'q=LoginPage' in ctx.js('return location.hash'), message='search in the URL')
    names = ctx.js("return [...document.querySelectorAll('.failure-card')].map(c => c.dataset.resultId)")
    expected = [str(r['id']) for r, p, _ in failing if p == 'LoginPage' or 'LoginPage' in (r.get('message') or '')]
    equal(sorted(names), sorted(expected), 'cards matching "LoginPage"')
    # Reloading the filtered URL restores the same view.
    ctx.driver.refresh()
    wait_for_view(ctx.driver, 'run')
    equal(ctx.js("return document.querySelector('input.search').value"), 'LoginPage', 'search restored from URL')


@test
def large_run_renders_pages_of_results(ctx):
    detail = ctx.api.get('/api/v1/runs/' + LARGE_RUN)
    failing = [r for r, _, _ in run_results(detail) if r['status'] in ('failed', 'error')]
    passed = [r for r, _, _ in run_results(detail) if r['status'] == 'passed']
    started = time.monotonic()
    ctx.open('#/runs/' + LARGE_RUN, 'run')
    elapsed = time.monotonic() - started
    print('    large run (%d results) rendered in %.0f ms' % (LARGE_COUNT, elapsed * 1000))
    cards = ctx.js("return document.querySelectorAll('.failure-card').length")
    equal(cards, min(60, len(failing)), 'failure cards on the first page')
    ctx.driver.find_element(By.CSS_SELECTOR, '.failures .more-row button').click()
    equal(ctx.js("return document.querySelectorAll('.failure-card').length"), min(120, len(failing)), 'after Show more')
    ctx.driver.find_element(By.CSS_SELECTOR, 'details[data-status=passed] > summary').click()
    wait_until(lambda: ctx.js("return document.querySelectorAll('details[data-status=passed] tbody tr').length") == 200,
               message='the first page of 200 passed rows after opening the section')
    check(len(passed) > 200, 'enough passed results to page')


@test
def back_from_a_failure_returns_to_the_run_where_it_was(ctx):
    ctx.open('#/runs/' + LARGE_RUN, 'run')
    ctx.js("document.querySelectorAll('.failure-card')[40].scrollIntoView({block: 'center'})")
    scrolled = ctx.js('return window.scrollY')
    check(scrolled > 500, 'scrolled down the run (%r)' % scrolled)
    ctx.driver.find_elements(By.CSS_SELECTOR, '.failure-card a.test-name')[40].click()
    wait_for_view(ctx.driver, 'result')
    equal(ctx.js('return window.scrollY'), 0, 'a new view starts at the top')
    # Coming from the run, the failure view steps through the run's failures in the run's order.
    order = [r['id'] for r, _, _ in run_results(ctx.api.get('/api/v1/runs/' + LARGE_RUN)) if r['status'] in ('failed', 'error')]
    current = int(ctx.js('return location.hash').split('/')[-1])
    check(str(order.index(current) + 1) + ' of ' + str(len(order)) in ctx.driver.find_element(By.CSS_SELECTOR, '.stepper').text,
          'position among the failures')
    ctx.driver.find_element(By.CSS_SELECTOR, '.stepper [data-step=next]').click()
    wait_until(lambda: ctx.js('return location.hash') == '#/results/%d' % order[order.index(current) + 1], message='next failure')
    wait_for_view(ctx.driver, 'result')
    ctx.driver.back()
    wait_for_view(ctx.driver, 'result')
    started = time.monotonic()
    ctx.driver.back()
    wait_for_view(ctx.driver, 'run')
    print('    back to the %d-result run in %.0f ms' % (LARGE_COUNT, (time.monotonic() - started) * 1000))
    near(ctx.js('return window.scrollY'), scrolled, 2, 'scroll position restored')


@test
def a_running_run_updates_its_counts_without_a_reload(ctx):
    started = datetime.datetime.now(datetime.timezone.utc)
    run_id = 'live-' + str(int(time.time() * 1000))
    ctx.api.put_run({'id': run_id, 'project': 'live', 'branch': 'main', 'source': 'reporter',
                     'startedAt': seed.iso(started)})
    ctx.api.post_results(run_id, [{'suite': 'LiveTests', 'name': 'testFirst', 'attempt': 1, 'status': 'passed'}])
    equal(ctx.open('#/runs/' + run_id, 'run'), 'ready', 'view state')
    ctx.js('window.__sameDocument = true;')
    numbers = lambda: ctx.js("return [...document.querySelectorAll('.big-number b')].map((b) => b.textContent);")
    equal(numbers()[:3], ['1', '0', '0'], 'results, failing tests, failed before')
    check('running' in ctx.driver.find_element(By.CSS_SELECTOR, '.run-summary').text, 'the run says it is running')

    # A failure arrives while the page is open: it shows without a reload.
    ctx.api.post_results(run_id, [{'suite': 'LiveTests', 'name': 'testSecond', 'attempt': 1, 'status': 'failed',
                                   'failures': [{'message': 'arrived live', 'isError': False}]}])
    wait_until(lambda: numbers()[:3] == ['2', '1', '1'], 15, message='the counts to move')
    check(ctx.js('return window.__sameDocument === true;'), 'the page was not reloaded')
    check('arrived live' in ctx.driver.find_element(By.ID, 'view').text, 'the new failure is listed')

    ctx.api.finish(run_id, seed.iso(started + datetime.timedelta(seconds=30)))
    wait_until(lambda: 'running' not in ctx.driver.find_element(By.CSS_SELECTOR, '.run-summary').text, 15,
               message='the run to show as finished')
    check(ctx.js('return window.__sameDocument === true;'), 'still the same page')


@test
def missing_run_shows_an_error_state(ctx):
    # The failing results first, and the run's errors alongside.
    ctx.allowed_console.append(re.compile(r'/api/v1/runs/no-such-run(\?status=[^ ]*|/errors)? .*404'))
    state = ctx.open('#/runs/no-such-run', 'run')
    equal(state, 'error', 'view state')
    text = ctx.driver.find_element(By.ID, 'view').text
    check('Not found' in text and 'The run does not exist.' in text, 'error text: %r' % text)


# MARK: Failure


def failure_with_frame(ctx, run_id):
    """The detail of a failing result of `run_id` with a screenshot and an element frame, or None."""
    for result, _, _ in run_results(ctx.api.get('/api/v1/runs/' + run_id)):
        if result['status'] not in ('failed', 'error'):
            continue
        detail = ctx.api.get('/api/v1/results/%d' % result['id'])
        if detail.get('elementFrame') and any(a['kind'] == 'screenshot' for a in detail['artifacts']):
            return detail
    return None


def element_tree(ctx, detail):
    link = next((a for a in detail['artifacts'] if a['kind'] == 'element_tree'), None)
    return ctx.api.get(link['url']) if link else None


def check_screenshot_and_outline(ctx, detail, device):
    """The screenshot's natural width is the device's pixel width; the outline sits on the frame."""
    wait_until(lambda: ctx.js("const i = document.getElementById('screenshot'); return i && i.complete && i.naturalWidth > 0"),
               message='the screenshot to load')
    natural = ctx.js("return document.getElementById('screenshot').naturalWidth")
    equal(natural, round(device['width'] * device['scale']), 'screenshot natural width (device pixels)')
    boxes = ctx.js("""
        const r = (e) => { const b = e.getBoundingClientRect(); return {x: b.left, y: b.top, w: b.width, h: b.height}; };
        const img = document.getElementById('screenshot');
        return {img: r(img), clientWidth: img.clientWidth, outline: r(document.querySelector('.outline-target'))};""")
    frame = detail['elementFrame']
    points_per_css = boxes['clientWidth'] / device['width']  # displayed CSS px per point = scale × displayed/natural
    check(boxes['clientWidth'] < natural, 'the screenshot is displayed scaled down (%r)' % boxes['clientWidth'])
    near(boxes['outline']['x'] - boxes['img']['x'], frame['x'] * points_per_css, 1.0, 'outline left')
    near(boxes['outline']['y'] - boxes['img']['y'], frame['y'] * points_per_css, 1.0, 'outline top')
    near(boxes['outline']['w'], frame['width'] * points_per_css, 1.0, 'outline width')
    near(boxes['outline']['h'], frame['height'] * points_per_css, 1.0, 'outline height')
    return points_per_css


@test
def run_to_failure_shows_the_screenshot_with_the_failing_element_outlined(ctx):
    detail = failure_with_frame(ctx, MAIN_RUN)
    check(detail is not None, 'the seeded suite run has a failure with an element frame and a screenshot')
    tree = element_tree(ctx, detail)
    check(tree is not None, 'the failure has an element tree')
    ctx.open('#/runs/' + MAIN_RUN, 'run')
    ctx.driver.find_element(By.CSS_SELECTOR, '.failure-card[data-result-id="%d"] a.test-name' % detail['result']['id']).click()
    wait_for_view(ctx.driver, 'result')
    equal(ctx.js('return location.hash'), '#/results/%d' % detail['result']['id'], 'URL of the failure view')
    scale = check_screenshot_and_outline(ctx, detail, tree['device'])

    failure = detail['failures'][0]
    text = ctx.driver.find_element(By.CSS_SELECTOR, '.failure-summary').text
    check(failure['message'] in text, 'message shown')
    check(location(failure['location']) in text and location(failure['callSite']) in text, 'location and call site')
    check(failure['action'] in text, 'action %r shown' % failure['action'])

    # The element tree: every element listed, the failing one marked; search by identifier.
    def count(element):
        return 1 + sum(count(child) for child in element.get('children', []))
    equal(ctx.js("return document.querySelectorAll('.inspector .tree-node').length"), count(tree['root']), 'tree nodes')
    check(ctx.js("return !!document.querySelector('.inspector .tree-node.is-target')"), 'failing element marked in the tree')
    identified = []
    def collect(element):
        if element.get('identifier'):
            identified.append(element)
        for child in element.get('children', []):
            collect(child)
    collect(tree['root'])
    probe = identified[len(identified) // 2]
    search = ctx.driver.find_element(By.CSS_SELECTOR, '.inspector input.tree-search')
    search.send_keys(probe['identifier'])
    wait_until(lambda: ctx.js("return document.querySelectorAll('.inspector .tree-node.is-match').length") > 0, message='a match')
    matches = ctx.js("return [...document.querySelectorAll('.inspector .tree-node.is-match')].map(n => n.dataset.identifier)")
    check(probe['identifier'] in matches, 'search finds %r in %r' % (probe['identifier'], matches))
    # Hovering a node outlines its element on the screenshot.
    node = ctx.driver.find_element(By.CSS_SELECTOR, '.inspector .tree-node.is-match[data-identifier="%s"]' % probe['identifier'])
    ActionChains(ctx.driver).move_to_element(node).perform()
    wait_until(lambda: not ctx.js("return document.querySelector('.outline-hover').hidden"), message='hover outline')
    hover = ctx.js("""
        const img = document.getElementById('screenshot').getBoundingClientRect();
        const b = document.querySelector('.outline-hover').getBoundingClientRect();
        return {x: b.left - img.left, y: b.top - img.top, w: b.width, h: b.height};""")
    (x, y), (w, hgt) = probe['frame'] if isinstance(probe['frame'], list) else ((probe['frame']['x'], probe['frame']['y']), (probe['frame']['width'], probe['frame']['height']))
    near(hover['x'], x * scale, 1.0, 'hover outline left')
    near(hover['y'], y * scale, 1.0, 'hover outline top')
    near(hover['w'], w * scale, 1.0, 'hover outline width')
    near(hover['h'], hgt * scale, 1.0, 'hover outline height')
    search.clear()
    search.send_keys(Keys.ESCAPE)
    ActionChains(ctx.driver).move_to_element(ctx.driver.find_element(By.CSS_SELECTOR, '.failure-summary')).perform()

    # The page trail, in order, with the failing step marked: the reporter's failure has an action trace, so the
    # trail is the trace's timeline.
    steps = ctx.js("return [...document.querySelectorAll('.timeline-step')].map(s => s.querySelector('.trail-page').textContent)")
    equal(steps, [step['page'] for step in detail['trail']], 'page trail')
    check(ctx.js("return !!document.querySelector('.timeline-step.is-failing')"), 'failing step marked')
    if detail.get('lastPassingScreenshot'):
        wait_until(lambda: ctx.js("const i = document.querySelector('.last-passing img'); return i && i.complete && i.naturalWidth > 0"),
                   message='the last passing screenshot to load')
    ctx.shot('03-failure.png')


@test
def failure_outline_follows_the_device_scale_on_a_2x_device(ctx):
    detail = failure_with_frame(ctx, SECOND_RUN)
    check(detail is not None, 'the iPhone SE run has a failure with an element frame')
    tree = element_tree(ctx, detail)
    equal(tree['device']['scale'], 2, 'iPhone SE scale')
    ctx.open('#/results/%d' % detail['result']['id'], 'result')
    check_screenshot_and_outline(ctx, detail, tree['device'])
    ctx.shot('04-failure-2x.png')


@test
def hostile_failure_view_renders_text_literally(ctx):
    run = ctx.api.get('/api/v1/runs/hostile-run')
    result = next(r for r, _, _ in run_results(run) if r['status'] == 'failed')
    ctx.open('#/results/%d' % result['id'], 'result')
    equal(ctx.js("return document.querySelector('.view-title h1').textContent"), seed.HOSTILE_NAME, 'title as text')
    check(seed.HOSTILE_MESSAGE in ctx.js("return document.querySelector('.failure-summary .message').textContent"), 'message')
    trail = ctx.js("return document.querySelector('.trail-page').textContent")
    equal(trail, seed.HOSTILE_PAGE, 'trail page as text')
    # No element tree: the scale comes from the device's known size (393 pt), the PNG is 393 px wide.
    detail = ctx.api.get('/api/v1/results/%d' % result['id'])
    check_screenshot_and_outline(ctx, detail, {'width': 393, 'scale': 1})
    ctx.driver.find_element(By.CSS_SELECTOR, 'details.output > summary').click()
    check('<script>alert(4)</script>' in ctx.driver.find_element(By.CSS_SELECTOR, 'details.output pre').text, 'output as text')
    ctx.shot('09-hostile-failure.png')
    assert_nothing_ran(ctx)


@test
def failure_view_shows_the_last_passing_screenshot_of_the_same_page(ctx):
    run = ctx.api.get('/api/v1/runs/flaky-2')
    failed = next(r for r, _, _ in run_results(run) if r['name'] == 'testSignInFlaky' and r['status'] == 'failed')
    detail = ctx.api.get('/api/v1/results/%d' % failed['id'])
    passing = detail.get('lastPassingScreenshot')
    check(passing is not None, 'the service finds the earlier passing screenshot of LoginPage')
    ctx.open('#/results/%d' % failed['id'], 'result')
    wait_until(lambda: ctx.js("const i = document.querySelector('.last-passing img'); return i && i.complete && i.naturalWidth > 0"),
               message='the last passing screenshot to load')
    equal(ctx.js("return document.querySelector('.last-passing img').getAttribute('src')"), passing['artifact']['url'],
          'last passing screenshot')
    equal(ctx.js("return document.querySelector('.last-passing a').getAttribute('href')"), '#/results/%d' % passing['resultId'],
          'link to the passing result')
    # No element tree: the device's width in points (iPhone SE: 375) and the screenshot give the scale.
    check_screenshot_and_outline(ctx, detail, {'width': 375, 'scale': 1})
    ctx.shot('04b-failure-with-last-passing.png')


# MARK: Test history and pages


@test
def failure_to_test_history_shows_timeline_durations_and_failure_pages(ctx):
    detail = failure_with_frame(ctx, MAIN_RUN)
    history = ctx.api.get('/api/v1/tests/%s/history' % detail['result']['testId'])
    entries = history['entries']
    check(len(entries) >= 2, 'the test ran in both suite runs')
    ctx.open('#/results/%d' % detail['result']['id'], 'result')
    ctx.driver.find_element(By.LINK_TEXT, 'Test history').click()
    wait_for_view(ctx.driver, 'test')
    equal(ctx.js('return location.hash'), '#/tests/' + detail['result']['testId'], 'URL of the history view')
    equal(ctx.js("return document.querySelector('.view-title h1').textContent"), detail['result']['name'], 'title')
    equal(ctx.js("return [...document.querySelectorAll('.timeline .tick')].map(t => t.dataset.status)"),
          [e['result']['status'] for e in reversed(entries)], 'status timeline, oldest first')
    equal(ctx.js("return [...document.querySelectorAll('.history-row')].map(r => +r.dataset.resultId)"),
          [e['result']['id'] for e in entries], 'history rows, newest first')
    failing_pages = sorted({e['result'].get('page') or '(no page)' for e in entries if e['result']['status'] in ('failed', 'error')})
    equal(sorted(ctx.js("return [...document.querySelectorAll('.failure-page-row')].map(r => r.dataset.page)")), failing_pages,
          'pages where the test failed')
    wait_until(lambda: ctx.js("return [...document.querySelectorAll('.chart-box')].every(b => b.dataset.chart === 'drawn')"),
               message='the durations chart')
    ctx.shot('05-test-history.png')


@test
def pages_view_lists_the_pages_of_the_seeded_runs_ranked_by_failures(ctx):
    listed = ctx.api.get('/api/v1/pages')['pages']
    seeded = set()
    for run in ctx.api.get('/api/v1/runs?limit=200')['runs']:
        for group in ctx.api.get('/api/v1/runs/' + run['run']['id'])['pages']:
            if group.get('page'):
                seeded.add(group['page'])
    check(seeded <= {p['page'] for p in listed}, 'the API lists every seeded page (sanity)')
    ctx.open('#/pages?sort=failures', 'pages')
    rows = ctx.js("return [...document.querySelectorAll('.page-row')].map(r => r.dataset.page)")
    equal(sorted(rows), sorted(p['page'] for p in listed), 'pages listed')
    for page in ('LoginPage', 'CatalogPage', 'ItemPage', 'SettingsPage', seed.HOSTILE_PAGE):
        check(page in rows, '%s listed' % page)
    failures = ctx.js("return [...document.querySelectorAll('.page-row')].map(r => +r.children[2].textContent.replace(/,/g, ''))")
    equal(failures, sorted(failures, reverse=True), 'ranked by failures')
    by_key = {(p['page'], p.get('suite', '')): p for p in listed}  # "(no page)" once per suite
    keys = ctx.js("return [...document.querySelectorAll('.page-row')].map(r => [r.dataset.page, r.dataset.suite])")
    equal(failures, [by_key[tuple(k)]['failureCount'] for k in keys], 'failure counts')
    ctx.open('#/pages?sort=flaky', 'pages')
    ranked = ctx.js("return [...document.querySelectorAll('.page-row')].map(r => r.dataset.page)")
    equal(ranked, [p['page'] for p in listed], 'ranked by flaky failures as the API ranks them')
    ctx.shot('06-pages.png')
    ctx.driver.find_element(By.CSS_SELECTOR, '.page-row[data-page="LoginPage"] a.page-link').click()
    wait_for_view(ctx.driver, 'page')
    equal(ctx.js('return location.hash').split('?')[0], '#/pages/LoginPage', 'URL of the page view')
    text = ctx.driver.find_element(By.ID, 'view').text
    check('Flaky tests on this page' in text, 'flaky section')
    report = ctx.api.get('/api/v1/flaky?page=LoginPage')
    check(report['flaky'], 'the seeded same-commit retry makes a flaky test on LoginPage')
    check(report['broken'], 'the seeded always-failing test is broken on LoginPage')
    equal(ctx.js("return [...document.querySelectorAll('.flaky-row')].map(r => r.dataset.testId)"),
          [t['testId'] for t in report['flaky']], 'flaky tests of LoginPage')
    equal(ctx.js("return [...document.querySelectorAll('.flaky-row .test-name')].map(n => n.textContent)"),
          [t['name'] for t in report['flaky']], 'flaky test names')
    equal(ctx.js("return [...document.querySelectorAll('.broken-row')].map(r => r.dataset.testId)"),
          [t['testId'] for t in report['broken']], 'broken tests of LoginPage')
    ctx.shot('07-page.png')


@test
def charts_degrade_to_tables_when_chartjs_is_missing(ctx):
    ctx.allowed_console.append(re.compile(r'/vendor/chart\.js'))
    runs = ctx.api.get('/api/v1/runs?limit=50')['runs']
    ctx.driver.execute_cdp_cmd('Network.enable', {})
    ctx.driver.execute_cdp_cmd('Network.setBlockedURLs', {'urls': ['*/vendor/chart.js']})
    try:
        ctx.driver.get('about:blank')  # a fresh document: no Chart from an earlier page
        ctx.open('#/runs', 'runs')
        wait_until(lambda: ctx.js("return document.querySelector('.chart-box').dataset.chart") == 'unavailable',
                   message='the chart box to give up on Chart.js')
        rows = ctx.js("return document.querySelectorAll('.chart-box .chart-table tbody tr').length")
        equal(rows, len(runs), 'pass-rate table rows in place of the chart')
        check(ctx.js("return !document.querySelector('.chart-box canvas')"), 'no canvas without Chart.js')
        ctx.shot('10-runs-without-chartjs.png')
    finally:
        ctx.driver.execute_cdp_cmd('Network.setBlockedURLs', {'urls': []})
        ctx.driver.get('about:blank')


# MARK: Suites that are not UI tests (issue 16)


def failing_results(detail):
    return [(r, p, c) for r, p, c in run_results(detail) if r['status'] in ('failed', 'error')]


@test
def run_view_shows_the_failure_location_where_the_call_site_is_unknown(ctx):
    detail = ctx.api.get('/api/v1/runs/' + UNIT_RUN)
    failing = failing_results(detail)
    equal(len(failing), 3, 'failing results of the unit test run (a failure, an error, a failure passed on retry)')
    check(all(c is None and p is None for _, p, c in failing), 'unit test failures have no page and no call site (sanity)')
    expected = {r['id']: location(ctx.api.get('/api/v1/results/%d' % r['id'])['failures'][0]['location']) for r, _, _ in failing}
    ctx.open('#/runs/' + UNIT_RUN, 'run')
    shown = lambda: ctx.js("""return Object.fromEntries([...document.querySelectorAll('.failure-card')].map(c => {
        const l = c.querySelector('.failure-location');
        return [c.dataset.resultId, l && !l.hidden ? l.textContent : null]; }))""")
    wait_until(lambda: all(shown().values()), message='the failure location on every card without a call site')
    equal({int(k): v for k, v in shown().items()}, {k: 'failure location ' + v for k, v in expected.items()},
          'failure location of each card')
    equal(ctx.js("return [...document.querySelectorAll('.callsite-group .callsite-none')].map(e => e.textContent)"),
          ['call site unknown'], 'the one group without a call site')
    # Cards with a call site (the UI suite) do not repeat the failure location.
    ctx.open('#/runs/' + MAIN_RUN, 'run')
    equal(ctx.js("return document.querySelectorAll('.failure-location').length"), 0, 'no failure location beside a call site')


@test
def failure_without_a_screenshot_says_why_for_reporter_and_imported_results(ctx):
    unit = ctx.api.get('/api/v1/runs/' + UNIT_RUN)
    equal(unit['summary']['run']['source'], 'reporter', 'the unit run came from the reporter (sanity)')
    result = next(r for r, _, _ in failing_results(unit) if r['name'] == 'testDivision')
    ctx.open('#/results/%d' % result['id'], 'result')
    state = ctx.driver.find_element(By.CSS_SELECTOR, '[data-no-screenshot]')
    equal(state.get_attribute('data-no-screenshot'), 'reporter', 'the placeholder knows the result came from the reporter')
    text = ctx.driver.find_element(By.ID, 'view').text
    check('imported' not in text, 'a reporter result is not called imported: %r' % state.text)
    check('drives no page object' in state.text, 'the reason for a unit test: %r' % state.text)
    summary = ctx.driver.find_element(By.CSS_SELECTOR, '.failure-summary').text
    check('MathTests.swift:27' in summary, 'failure location shown: %r' % summary)
    check('none: not in a page object step' in summary and 'Call site' not in summary,
          'no empty call site and action facts for a unit test: %r' % summary)
    ctx.shot('11-unit-test-failure.png')
    # An imported (JUnit) failure without a screenshot says it was imported.
    bidi = ctx.api.get('/api/v1/runs/bidi-run')
    equal(bidi['summary']['run']['source'], 'junit', 'the bidi run was imported (sanity)')
    imported = next(r for r, _, _ in failing_results(bidi))
    ctx.open('#/results/%d' % imported['id'], 'result')
    state = ctx.driver.find_element(By.CSS_SELECTOR, '[data-no-screenshot]')
    equal(state.get_attribute('data-no-screenshot'), 'imported', 'imported placeholder')
    check('imported from JUnit XML' in state.text, 'names the import: %r' % state.text)


@test
def page_group_counts_agree_with_the_run_counts(ctx):
    for run_id in (MAIN_RUN, UNIT_RUN, LARGE_RUN):
        detail = ctx.api.get('/api/v1/runs/' + run_id)
        counts = detail['summary']['counts']
        ctx.open('#/runs/' + run_id, 'run')
        shown = ctx.js("""return [...document.querySelectorAll('.page-group')].map(g => ({page: g.dataset.page,
            failed: +((g.querySelector('[data-count=failed]') || {}).textContent || '0').replace(/[^0-9]/g, ''),
            error: +((g.querySelector('[data-count=error]') || {}).textContent || '0').replace(/[^0-9]/g, '')}))""")
        groups = {(g.get('page') or '(no page)'): g['counts'] for g in detail['pages']}
        for group in shown:
            api_counts = groups[group['page']]
            equal((group['failed'], group['error']), (api_counts['failed'], api_counts['error']),
                  '%s: counts of page %s' % (run_id, group['page']))
        chips = ctx.js("""return Object.fromEntries([...document.querySelectorAll('.chips .chip')].map(c =>
            [(c.className.match(/chip-(\\w+)/) || [, 'all'])[1], +c.querySelector('.chip-count').textContent.replace(/,/g, '')]))""")
        equal(chips, {key: n for key, n in (('all', counts['total']), ('failing', counts['failed'] + counts['error']),
                                            ('failed', counts['failed']), ('error', counts['error']), ('passed', counts['passed']),
                                            ('skipped', counts['skipped']), ('expected_failure', counts['expectedFailure']))
                      if n or key == 'all'}, '%s: status chips' % run_id)
        if run_id != LARGE_RUN:  # the large run renders its first 60 failures only
            equal(sum(g['failed'] for g in shown), counts['failed'], '%s: failed over the page groups = the run\'s' % run_id)
            equal(sum(g['error'] for g in shown), counts['error'], '%s: errors over the page groups = the run\'s' % run_id)
    # A search keeps the service's counts and says how many match.
    ctx.open('#/runs/%s?q=testDivision' % UNIT_RUN, 'run')
    group = ctx.driver.find_element(By.CSS_SELECTOR, '.page-group').text
    check('2 failed' in group and '1 error' in group and '1 of 3 match' in group, 'filtered group head: %r' % group)


@test
def no_screenshot_placeholder_is_not_cut_off(ctx):
    ctx.open('#/runs/' + UNIT_RUN, 'run')
    boxes = ctx.js("""return [...document.querySelectorAll('.thumb-none')].map(t => {
        const box = t.getBoundingClientRect();
        const range = document.createRange(); range.selectNodeContents(t);
        const text = range.getBoundingClientRect();
        return {label: t.getAttribute('aria-label'), words: t.textContent, scroll: [t.scrollWidth, t.scrollHeight],
                client: [t.clientWidth, t.clientHeight], inside: text.left >= box.left && text.right <= box.right
                && text.top >= box.top && text.bottom <= box.bottom}; })""")
    equal(len(boxes), 3, 'a placeholder per failing result')
    for box in boxes:
        check(box['inside'] and box['scroll'][0] <= box['client'][0] and box['scroll'][1] <= box['client'][1],
              'placeholder text fits its box: %r' % box)
        check(box['label'].startswith('No screenshot of '), 'placeholder says what it is: %r' % box)


LAPTOP = (1366, 768)


@test
def every_view_fits_a_1366_pixel_laptop_screen(ctx):
    flaky_result = next(r for r, _, _ in run_results(ctx.api.get('/api/v1/runs/flaky-2')) if r['name'] == 'testSignInFlaky')
    views = [('#/runs', 'runs'), ('#/runs/' + MAIN_RUN, 'run'), ('#/runs/' + UNIT_RUN, 'run'),
             ('#/results/%d' % failure_with_frame(ctx, MAIN_RUN)['result']['id'], 'result'),
             ('#/results/%d' % flaky_result['id'], 'result'),
             ('#/tests/' + flaky_result['testId'], 'test'), ('#/pages', 'pages'), ('#/pages?sort=failures', 'pages'),
             ('#/pages/LoginPage', 'page'), ('#/pages/%28no%20page%29?suite=ParserTests', 'page'),
             ('#/runs/cmp-feature/compare', 'compare'), ('#/runs/err-feature', 'run'),
             ('#/errors?project=errors', 'errors'), ('#/durations?project=compare', 'durations')]
    original = ctx.driver.get_window_size()
    ctx.driver.set_window_size(*LAPTOP)
    try:
        equal(ctx.js('return window.innerWidth'), LAPTOP[0], 'viewport width')
        for index, (hash_route, view) in enumerate(views):
            equal(ctx.open(hash_route, view), 'ready', 'state of %s' % hash_route)
            wait_until(lambda: ctx.js("return !document.querySelector('.verdict-box [data-state=loading]')"),
                       message='the verdict on %s' % hash_route)
            next_frames(ctx.driver)
            widths = ctx.js("""return {page: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth,
                clipped: [...document.querySelectorAll('.table-scroll')].filter(t => t.scrollWidth > t.clientWidth + 1)
                  .map(t => [t.querySelector('table').className, t.scrollWidth, t.clientWidth])}""")
            check(widths['page'] <= widths['viewport'], '%s scrolls sideways: %r' % (hash_route, widths))
            equal(widths['clipped'], [], 'tables cut off on %s' % hash_route)
            ctx.driver.save_screenshot(os.path.join(OUTPUT, '1366-%02d-%s.png' % (index + 1, view)))
    finally:
        ctx.driver.set_window_size(original['width'], original['height'])


@test
def run_comparison_lists_what_changed_against_main_with_a_shareable_url(ctx):
    equal(ctx.open('#/runs/cmp-feature', 'run'), 'ready', 'the run view')
    ctx.driver.find_element(By.CSS_SELECTOR, 'a.compare-link').click()
    equal(wait_for_view(ctx.driver, 'compare'), 'ready', 'the comparison view')
    equal(ctx.js('return location.hash'), '#/runs/cmp-feature/compare', 'the URL')
    equal(ctx.js("return document.querySelector('.compare-summary a[href=\"#/runs/cmp-main\"]') !== null"), True,
          'the default base is the newest finished run of main')

    def sections():
        return ctx.js("""return Object.fromEntries([...document.querySelectorAll('.compare-section')].map(s =>
            [s.dataset.section, {count: s.querySelector('.section-count').textContent,
              empty: !!s.querySelector('.compare-empty'),
              rows: [...s.querySelectorAll('tbody tr')].map(r => ({
                test: r.querySelector('td a').textContent, href: r.querySelector('td a').getAttribute('href'),
                page: r.querySelector('td.page').textContent, callSite: r.querySelector('td.call-site').textContent,
                id: r.dataset.resultId}))}]))""")

    shown = sections()
    expected = {'newFailures': ['testA', seed.HOSTILE_NAME], 'fixed': ['testC'], 'stillFailing': ['testB'],
                'flaky': [], 'newTests': ['testAdded', seed.HOSTILE_NAME], 'removedTests': ['testGone'],
                'durationChanges': ['testSlow']}
    for field, names in expected.items():
        equal(sorted(row['test'] for row in shown[field]['rows']), sorted(names), field)
        equal(shown[field]['count'], str(len(names)), 'count of ' + field)
        equal(shown[field]['empty'], not names, 'empty state of ' + field)
    hostile = next(row for row in shown['newFailures']['rows'] if row['test'] == seed.HOSTILE_NAME)
    equal(hostile['page'], seed.HOSTILE_PAGE, 'page as text')
    equal(hostile['callSite'], 'CartTests.swift:50', 'call site')
    equal(hostile['href'], '#/results/' + hostile['id'], 'the row links to its result')
    assert_nothing_ran(ctx)
    ctx.shot('20-compare.png')

    # The URL names the base: another branch, a run, a branch without runs.
    equal(ctx.open('#/runs/cmp-feature/compare?baseBranch=nothing', 'compare'), 'ready', 'no base')
    check(ctx.js("return document.querySelector('[data-state=empty] h3').textContent") == 'No base run', 'no base state')
    equal(sections()['fixed']['empty'], True, 'nothing fixed without a base')
    equal(ctx.open('#/runs/cmp-main/compare?base=cmp-feature', 'compare'), 'ready', 'explicit base')
    equal([row['test'] for row in sections()['fixed']['rows']], ['testA'], 'fixed against the feature run')
    ctx.allowed_console.append(re.compile(r'/compare\?base=nope'))
    equal(ctx.open('#/runs/cmp-feature/compare?base=nope', 'compare'), 'error', 'an unknown base')


@test
def test_history_says_whether_the_test_is_flaky_or_broken_now_and_why(ctx):
    report = ctx.api.get('/api/v1/flaky?project=demo')
    flaky = next(t for t in report['flaky'] if t['name'] == 'testSignInFlaky')
    broken = next(t for t in report['broken'] if t['name'] == 'testAlwaysBroken')
    check('contradiction' in flaky['reasons'], 'the same-commit retry is a contradiction (sanity)')

    def verdict():
        return wait_until(lambda: ctx.js("const v = document.querySelector('section.verdict'); return v && v.dataset.verdict"),
                          message='the verdict')

    ctx.open('#/tests/' + flaky['testId'], 'test')
    equal(verdict(), 'flaky', 'verdict of testSignInFlaky')
    item = ctx.driver.find_element(By.CSS_SELECTOR, '.verdict-item[data-verdict=flaky]')
    equal(item.get_attribute('data-branch'), flaky['branch'], 'branch it is flaky on')
    text = item.text
    commit = flaky['contradictingCommits'][0]
    check('Passed and failed on the same commit' in text and commit['commit'][:8] in text
          and '(%d passed, %d failed)' % (commit['passes'], commit['fails']) in text, 'the contradiction as evidence: %r' % text)
    check('Flaky right now' in ctx.driver.find_element(By.CSS_SELECTOR, 'section.verdict h2').text, 'heading')
    equal(ctx.js("return [...document.querySelectorAll('.verdict-item li[data-reason=pages] a')].map(a => [a.textContent, a.getAttribute('href')])"),
          [[p['page'], '#/pages/%s?branch=%s' % (p['page'], flaky['branch'])] for p in flaky['pages']], 'links to the pages of its failures')
    check('flips' not in ctx.driver.find_element(By.ID, 'view').text.lower(), 'no client-side flip count')
    ctx.shot('05b-test-history-flaky.png')

    ctx.open('#/tests/' + broken['testId'], 'test')
    equal(verdict(), 'broken', 'verdict of testAlwaysBroken')
    text = ctx.driver.find_element(By.CSS_SELECTOR, '.verdict-item[data-verdict=broken]').text
    check('Every result on its newest commit' in text and broken['commit'][:8] in text
          and '%d results' % broken['failCount'] in text, 'why broken: %r' % text)

    unit = next(r for r, _, _ in run_results(ctx.api.get('/api/v1/runs/' + UNIT_RUN)) if r['name'] == 'testDivision')
    check(all(t['testId'] != unit['testId'] for t in report['flaky'] + report['broken']), 'testDivision is neither (sanity)')
    ctx.open('#/tests/' + unit['testId'], 'test')
    equal(verdict(), 'stable', 'verdict of testDivision')
    text = ctx.driver.find_element(By.CSS_SELECTOR, 'section.verdict').text
    check('Neither flaky nor broken' in text and 'last %d days' % report['days'] in text, 'the "neither" verdict: %r' % text)
    ctx.shot('05c-test-history-unit.png')

    # Test-controlled text in the verdict (branch, commit) is isolated, its invisible characters shown.
    bidi = next(t for t in report['flaky'] if t['name'] == seed.UNTRUSTED_NAME)
    ctx.open('#/tests/' + bidi['testId'], 'test')
    equal(verdict(), 'flaky', 'verdict of the test on the disguised branch')
    badges = ctx.js("return [...document.querySelectorAll('section.verdict .code-point')].map(b => b.textContent)")
    check('U+200B' in badges and 'U+202E' in badges, 'branch and commit badges in the verdict: %r' % badges)
    check(ctx.js("return [...document.querySelectorAll('section.verdict .code-point')].every(b => b.closest('bdi'))"),
          'verdict badges inside <bdi>')
    text = ctx.driver.find_element(By.CSS_SELECTOR, 'section.verdict').text
    check(not any(c in text for c in INVISIBLE_RAW), 'raw invisible characters in the verdict: %r' % text)

    # Flaky by flip rate alone: the evidence is the service's rate, flips and sample.
    flipping = next(t for t in ctx.api.get('/api/v1/flaky?project=fliprate')['flaky'] if t['name'] == 'testToastDisappears')
    equal(flipping['reasons'], ['flip_rate'], 'reasons of the alternating test (sanity)')
    ctx.open('#/tests/' + flipping['testId'], 'test')
    equal(verdict(), 'flaky', 'verdict of testToastDisappears')
    text = ctx.driver.find_element(By.CSS_SELECTOR, '.verdict-item[data-verdict=flaky] li[data-reason=flip_rate]').text
    expected = 'Flip rate %s: %d changes between pass and fail over its newest %d results' % (
        '100%' if flipping['flipRate'] == 1 else '%.1f%%' % (flipping['flipRate'] * 100), flipping['flips'], flipping['sampleCount'])
    check(text.startswith(expected), 'flip rate evidence: %r, expected %r' % (text, expected))


# MARK: The dashboard reads what the API says (issue 22)


@test
def views_read_the_api_without_probing_its_document(ctx):
    flaky = ctx.api.get('/api/v1/flaky?project=demo')['flaky'][0]
    for hash_route, view in (('#/pages', 'pages'), ('#/pages/LoginPage', 'page'), ('#/tests/' + flaky['testId'], 'test'),
                             ('#/runs/' + MAIN_RUN, 'run')):
        ctx.driver.get('about:blank')
        ctx.open(hash_route, view)
        wait_until(lambda: ctx.js("return !document.querySelector('[data-state=loading]')"), message='%s settled' % hash_route)
        requested = ctx.js("return performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)")
        check('/api/v1/openapi.json' not in requested, '%s asks the OpenAPI document for endpoints: %r' % (hash_route, requested))
    # The flaky columns read the service's fields: the page rows show the API's flaky counts.
    listed = {p['page']: p for p in ctx.api.get('/api/v1/pages')['pages']}
    ctx.open('#/pages', 'pages')
    rows = ctx.js("return [...document.querySelectorAll('.page-row')].map(r => [r.dataset.page, r.children[6].textContent])")
    equal({page: int(n.replace(',', '')) for page, n in rows if page != '(no page)'},
          {page: p['flakyTestCount'] for page, p in listed.items() if page != '(no page)'}, 'flaky test counts')
    # The shapes the views read are written down in one module, for every endpoint the client calls.
    web = os.path.join(os.path.dirname(__file__), '..', '..', 'Web', 'js')
    client = open(os.path.join(web, 'api.js'), encoding='utf-8').read()
    shapes = open(os.path.join(web, 'shapes.js'), encoding='utf-8').read()
    for path in sorted(set(re.findall(r"'/api/v1/([a-z]+)", client))):
        check('GET /api/v1/' + path in shapes, 'shapes.js documents GET /api/v1/%s' % path)
    for folder, _, files in os.walk(web):
        for name in files:
            text = open(os.path.join(folder, name), encoding='utf-8').read()
            check('openapi.json' not in text or name == 'shapes.js', '%s reads the OpenAPI document' % name)


# MARK: Quarantine


@test
def quarantine_view_shows_entries_as_text_with_their_audit_log_and_lift_command(ctx):
    entries = ctx.api.get('/api/v1/quarantine?project=quarantine')['entries']
    equal(len(entries), 1, 'the seeded entry (sanity)')
    entry = entries[0]
    ctx.open('#/quarantine', 'quarantine')
    row = ctx.driver.find_element(By.CSS_SELECTOR, 'tr.quarantine-row[data-entry-id="%d"]' % entry['id'])
    equal(row.find_element(By.CSS_SELECTOR, '.reason').get_attribute('textContent'), seed.HOSTILE_REASON, 'reason as text')
    equal(row.find_element(By.CSS_SELECTOR, '.owner').get_attribute('textContent'), 'ana <ana@example.com>', 'owner')
    equal(row.find_element(By.CSS_SELECTOR, '.test-name').text, 'testTotal', 'test')
    check(entry['expires'] in row.text, 'expiry %s in %r' % (entry['expires'], row.text))
    row.find_element(By.CSS_SELECTOR, '.audit-log summary').click()
    wait_until(lambda: row.find_element(By.CSS_SELECTOR, '.audit-log li').is_displayed(), message='the audit log')
    log = row.find_element(By.CSS_SELECTOR, '.audit-log li').text
    check('added' in log and 'browser-tests (upload token)' in log, 'who and what in %r' % log)
    row.find_element(By.CSS_SELECTOR, '.lift-command summary').click()
    command = wait_until(lambda: row.find_element(By.CSS_SELECTOR, '.lift-command .command-text').text,
                         message='the lift command')
    equal(command, "failscope quarantine remove --id %d --reason 'REASON'" % entry['id'], 'lift command')
    row.find_element(By.CSS_SELECTOR, '.edit-command summary').click()
    edit = wait_until(lambda: row.find_element(By.CSS_SELECTOR, '.edit-command .command-text').text,
                      message='the edit command')
    quoted = "'" + seed.HOSTILE_REASON.replace("'", "'\\''") + "'"
    equal(edit, "failscope quarantine edit --id %d --owner 'ana <ana@example.com>' --reason %s --expires %s --why 'WHY'"
          % (entry['id'], quoted, entry['expires']), 'edit command with the reason shell-quoted')
    ctx.shot('20-quarantine.png')
    ctx.open('#/quarantine?project=nobody', 'quarantine')
    check(ctx.driver.find_element(By.CSS_SELECTOR, '[data-state="empty"]').is_displayed(), 'empty state')
    assert_nothing_ran(ctx)


@test
def run_and_result_views_mark_failures_of_quarantined_tests(ctx):
    detail = ctx.api.get('/api/v1/runs/quarantine-run')
    equal(detail['summary']['statusWithQuarantine'], 'passed', 'the run passes with its quarantine (sanity)')
    ctx.open('#/runs?project=quarantine', 'runs')
    row = ctx.driver.find_element(By.CSS_SELECTOR, 'tr.run-row[data-run-id="quarantine-run"]')
    check('1 quarantined' in row.text, 'the runs list says so: %r' % row.text)
    ctx.open('#/runs/quarantine-run', 'run')
    equal(ctx.js("return document.querySelector('.run-forgiven') && document.querySelector('.run-forgiven').textContent"),
          'passes with quarantine', 'run header')
    card = ctx.driver.find_element(By.CSS_SELECTOR, '.failure-card')
    equal(card.find_element(By.CSS_SELECTOR, '.status-quarantined').text, 'failed, quarantined', 'failure badge')
    result_id = card.get_attribute('data-result-id')
    ctx.open('#/results/' + result_id, 'result')
    equal(ctx.js("return [...document.querySelectorAll('.view-header .status-quarantined')].map(b => b.textContent)"),
          ['failed, quarantined'], 'result header badge')
    ctx.open('#/runs/flaky-1', 'run')
    equal(ctx.js("return document.querySelectorAll('.status-quarantined').length"), 0, 'no badge without a quarantine')


@test
def flaky_rows_offer_the_quarantine_command_with_quoted_names(ctx):
    report = ctx.api.get('/api/v1/flaky?page=LoginPage')
    test = report['flaky'][0]
    ctx.open('#/pages/LoginPage', 'page')
    row = ctx.driver.find_element(By.CSS_SELECTOR, '.flaky-row[data-test-id="%s"]' % test['testId'])
    row.find_element(By.CSS_SELECTOR, '.quarantine-command summary').click()
    command = wait_until(lambda: row.find_element(By.CSS_SELECTOR, '.quarantine-command .command-text').text,
                         message='the quarantine command')
    expected = "failscope quarantine add --project '%s' --suite '%s' --name '%s' --owner 'OWNER' --reason 'REASON' --expires " % (
        test['project'], test['suite'], test['name'])
    check(command.startswith(expected), 'command %r starts with %r' % (command, expected))
    check(re.fullmatch(r'\d{4}-\d{2}-\d{2}', command[len(expected):]), 'an expiry date ends it: %r' % command)
    equal(ctx.js("return document.querySelectorAll('.broken-row .quarantine-command').length"), len(report['broken']),
          'broken rows offer it too')


# MARK: Safety


@test
def hostile_strings_render_literally_and_run_nothing(ctx):
    ctx.open('#/runs', 'runs')
    row = ctx.driver.find_element(By.CSS_SELECTOR, 'tr.run-row[data-run-id="hostile-run"]')
    check(seed.HOSTILE_BRANCH in row.text, 'hostile branch literal in %r' % row.text)
    check(not ctx.js("return !!document.querySelector('a[href^=\"javascript\"]')"), 'no javascript: link')
    ctx.open('#/runs/hostile-run?status=failed', 'run')
    card = ctx.driver.find_element(By.CSS_SELECTOR, '.failure-card')
    equal(card.find_element(By.CSS_SELECTOR, '.test-name').text, seed.HOSTILE_NAME, 'test name as text')
    equal(card.find_element(By.CSS_SELECTOR, '.message').get_attribute('textContent'), seed.HOSTILE_MESSAGE,
          'message as text')
    equal(ctx.js("return document.querySelector('.page-group .page-name').textContent"), seed.HOSTILE_PAGE,
          'page as text')
    ctx.shot('08-hostile-run.png')
    assert_nothing_ran(ctx)


INVISIBLE_RAW = ['\u200b', '\u202e', '\u2066', '\u2069', '\ufeff']


@test
def bidi_and_invisible_characters_are_isolated_and_shown(ctx):
    ctx.open('#/runs', 'runs')
    row = "tr.run-row[data-run-id='bidi-run']"
    badges = ctx.js("return [...document.querySelectorAll(arguments[0] + ' .code-point')].map(b => b.textContent)", row)
    check('U+200B' in badges and 'U+202E' in badges, 'branch and commit badges in the runs list: %r' % badges)
    ctx.open('#/runs/bidi-run?status=failed', 'run')
    title = ctx.js('return document.title')
    check('ma<U+200B>in' in title and '\u200b' not in title, 'document title spells the invisible character: %r' % title)
    card = '.failure-card'
    equal(ctx.js("return [...document.querySelectorAll(arguments[0] + ' .test-name .code-point')].map(b => b.textContent)",
                 card), ['U+202E'], 'badge in the test name')
    equal(ctx.js("return [...document.querySelectorAll(arguments[0] + ' .message .code-point')].map(b => b.textContent)",
                 card), ['U+2066', 'U+2069', 'U+FEFF'], 'badges in the message')
    # Every badge sits in an isolated field, and no raw invisible character is left on the page.
    check(ctx.js("return [...document.querySelectorAll('.code-point')].every(b => b.closest('bdi'))"),
          'badges inside <bdi>')
    text = ctx.js('return document.body.innerText')
    check(not any(c in text for c in INVISIBLE_RAW), 'raw invisible characters shown: %r' %
          [c for c in INVISIBLE_RAW if c in text])
    direction = ctx.js("return getComputedStyle(document.querySelector(arguments[0] + ' .test-name bdi')).unicodeBidi",
                       card)
    equal(direction, 'isolate', 'the test name is isolated')
    ctx.shot('10-bidi-run.png')


@test
def ci_build_links_accept_only_http_urls_and_plain_same_origin_paths(ctx):
    ctx.open('#/runs', 'runs')
    # Each case: (href as stored, what the link check returns). The refused paths are the browser
    # normalisations that take a same-origin-looking path off-site (checked below).
    cases = [
        ('/\\evil.example/x', None), ('\\/evil.example/x', None), ('/\t/evil.example/x', None),
        ('/\n/evil.example/x', None), ('/\r/evil.example/x', None), (' //evil.example/x', None),
        ('//evil.example/x', None), ('/x//evil.example', None), ('/%09/evil.example', '/%09/evil.example'),
        ('javascript:alert(1)', None), ('JaVaScRiPt:alert(1)', None), ('data:text/html,x', None),
        ('builds/7', None), ('http://ci.example/builds/7', 'http://ci.example/builds/7'),
        ('https://ci.example/b?x=1', 'https://ci.example/b?x=1'), ('/ci/builds/7', '/ci/builds/7'),
        ('#/runs/x', '#/runs/x'),
    ]
    answers = ctx.driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; const cases = arguments[0];"
        "import('/js/dom.js').then((m) => done(cases.map((c) => m.safeHref(c))));", [c for c, _ in cases])
    for (href, expected), answer in zip(cases, answers):
        equal(answer, expected, 'safeHref(%r)' % href)
    # The refused same-origin-looking paths really do leave the origin in this browser.
    origins = ctx.js("return arguments[0].map((c) => new URL(c, location.href).origin)",
                     ['/\\evil.example/x', '\\/evil.example/x', '/\t/evil.example/x', '/\n/evil.example/x'])
    equal(origins, ['http://evil.example'] * 4, 'browser normalisations')
    ctx.open('#/runs/bidi-run', 'run')
    links = ctx.js("return [...document.querySelectorAll('#view a[href]')].map((a) => a.href)")
    check(not any('evil.example' in link for link in links), 'off-site CI link made: %r' % links)


@test
def malformed_fragment_shows_the_not_found_view(ctx):
    state = ctx.open('#/runs/%E0%A4%A', 'notfound')
    equal(state, 'error', 'view state')
    text = ctx.driver.find_element(By.ID, 'view').text
    check('Not found' in text, 'not-found text: %r' % text)


def assert_nothing_ran(ctx):
    equal(alert_text(ctx.driver), None, 'alert dialog')
    equal(ctx.js('return window.__alerts || []'), [], 'alert() calls')
    equal(ctx.js("return document.querySelectorAll('img[src=\"x\"], img[src=\"y\"], svg[onload], i').length"
                 " + [...document.querySelectorAll('b')].filter(b => b.textContent === 'bold').length"), 0,
          'elements made from test-controlled text')
    scripts = ctx.js("return [...document.scripts].map(s => s.src)")
    check(all(s.startswith(BASE + '/') for s in scripts), 'only same-origin scripts: %r' % scripts)


@test
def dashboard_is_served_with_a_strict_content_security_policy(ctx):
    with urllib.request.urlopen(BASE + '/') as response:
        policy = response.headers.get('Content-Security-Policy') or ''
    check("script-src 'self'" in policy and 'unsafe-inline' not in policy, 'CSP: %r' % policy)
    web = os.path.join(os.path.dirname(__file__), '..', '..', 'Web')
    for folder, _, files in os.walk(web):
        for name in files:
            if not name.endswith(('.js', '.html')):
                continue
            text = open(os.path.join(folder, name), encoding='utf-8').read()
            # Spelled in pieces so that a grep for these APIs over the repository finds only real uses.
            for forbidden in ('inner' + 'HTML', 'outer' + 'HTML', 'insertAdjacent' + 'HTML', 'document.' + 'write',
                              ' style' + '="', 'ev' + 'al(', 'new ' + 'Function('):
                check(forbidden not in text, '%s uses %s' % (name, forbidden))


@test
def a_runs_new_errors_and_one_broken_screen_read_as_one_problem(ctx):
    equal(ctx.open('#/runs/err-feature', 'run'), 'ready', 'the run view')
    wait_until(lambda: ctx.js("return document.querySelector('.run-errors').dataset.state") == 'ready',
               message='the errors card')
    card = ctx.js("""const card = document.querySelector('.run-errors');
        return {hidden: card.hidden, before: card.compareDocumentPosition(document.querySelector('.toolbar')) === 4,
          newErrors: [...card.querySelectorAll('.new-error .error-message')].map(e => e.textContent),
          groups: [...card.querySelectorAll('.failure-group')].map(g => [g.dataset.kind, g.querySelectorAll('.group-members li').length]),
          verdicts: [...card.querySelectorAll('.verdict-counts .badge')].map(b => b.textContent),
          bold: card.querySelectorAll('b, script, img:not(.thumb)').length};""")
    equal(card['hidden'], False, 'the card is shown')
    equal(card['before'], True, 'above the results')
    # The timeout was seen on main (testB) but never on this branch: both errors are new here.
    equal(len(card['newErrors']), 2, 'two new errors')
    check('Timed out after <n> s waiting for "…"' in card['newErrors'], 'the timeout without its values')
    check(any('<b>bold</b>' in m for m in card['newErrors']), 'the hostile message as text')
    equal(card['bold'], 0, 'no element from test text')
    equal(card['groups'], [['signature', 3], ['screenshot', 3]], 'three failures on one screen: one problem')
    # testA passed on main: a regression; testB failed there too; testC and testD are new.
    equal(card['verdicts'], ['1 regression', '3 new'], 'the verdicts')
    assert_nothing_ran(ctx)
    ctx.shot('30-run-errors.png')


@test
def errors_view_ranks_unique_errors(ctx):
    equal(ctx.open('#/errors?project=errors', 'errors'), 'ready', 'the errors view')
    rows = ctx.js("""return [...document.querySelectorAll('.errors-table tbody tr')].map(r =>
        [...r.querySelectorAll('td')].map(td => td.textContent));""")
    equal(len(rows), 2, 'two unique errors')
    check(rows[0][0].startswith('Timed out after <n> s waiting for "…"'), 'the timeout first')
    equal(rows[0][1:4], ['3', '2', '4'], 'tests, runs, failures')
    check(rows[0][4].startswith('err-main'), 'first seen on main')
    check(rows[0][5].startswith('err-feature'), 'last seen on the feature branch')
    equal(ctx.js("return document.querySelectorAll('.errors-table b, .errors-table script').length"), 0, 'text only')
    assert_nothing_ran(ctx)
    ctx.shot('31-errors.png')


@test
def durations_view_lists_the_slowest_tests_and_draws_a_trend(ctx):
    equal(ctx.open('#/durations?project=compare', 'durations'), 'ready', 'the durations view')
    names = ctx.js("return [...document.querySelectorAll('.slowest-table tbody tr td:first-child')].map(td => td.textContent)")
    equal(names[0], 'CartTests · testSlow', 'the slowest test first (3 s on the feature run)')
    ctx.driver.find_element(By.CSS_SELECTOR, '.slowest-table tbody tr:first-child a').click()
    wait_until(lambda: ctx.js("return document.querySelector('.trend-table') !== null"), message='the trend')
    equal(ctx.js("return document.querySelectorAll('.trend-table tbody tr').length") >= 1, True, 'a day of percentiles')
    assert_nothing_ran(ctx)


@test
def durations_view_lists_the_slowest_page_actions_and_draws_a_trend(ctx):
    # Timed steps: a failing result's steps count but its last (cut short by the failure: tapLogin's 9 s); a
    # passing result's last step ran to the test's end and counts. The hostile page and action are text.
    started = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=3)
    ctx.api.put_run({'id': 'action-durations', 'project': 'actions', 'branch': 'main', 'source': 'reporter',
                     'startedAt': seed.iso(started)})
    ctx.api.post_results('action-durations', [
        {'suite': 'CatalogTests', 'name': 'testSearch', 'attempt': 1, 'status': 'passed', 'duration': 2,
         'trail': [{'page': 'CatalogPage', 'duration': 0.1},
                   {'page': 'CatalogPage', 'action': 'search(_:)', 'duration': 1.5}]},
        {'suite': 'XSSTests', 'name': 'testTap', 'attempt': 1, 'status': 'failed', 'duration': 10,
         'failures': [{'message': 'timed out', 'isError': False}],
         'trail': [{'page': seed.HOSTILE_PAGE, 'action': 'tap(<i>x</i>)', 'duration': 0.75},
                   {'page': 'LoginPage', 'action': 'tapLogin()', 'duration': 9}]},
    ])
    ctx.api.finish('action-durations', seed.iso(started + datetime.timedelta(seconds=30)))
    report = ctx.api.get('/api/v1/durations/actions?project=actions')
    expected = ['CatalogPage.search(_:)', seed.HOSTILE_PAGE + '.tap(<i>x</i>)']
    equal([r['action']['page'] + '.' + r['action']['action'] for r in report['slowest']], expected, 'the API')

    equal(ctx.open('#/durations?project=actions', 'durations'), 'ready', 'the durations view')
    ctx.driver.find_element(By.CSS_SELECTOR, 'a.durations-of[data-of="actions"]').click()
    rows = "return [...document.querySelectorAll('.slowest-table tbody tr[data-action]')].map(r => [...r.children].map(c => c.textContent))"
    shown = wait_until(lambda: ctx.js(rows), message='the page actions')
    equal(shown, [[expected[0], '1.5 s', '1.5 s', '1'], [expected[1], '750 ms', '750 ms', '1']], 'slowest actions by p95')
    check('of=actions' in ctx.js('return location.hash'), 'the tab is in the URL')
    ctx.driver.find_element(By.CSS_SELECTOR, '.slowest-table tbody tr:first-child a').click()
    wait_until(lambda: ctx.js("return [...document.querySelectorAll('.chart-box')].some(b => b.dataset.chart === 'drawn')"),
               message='the trend chart')
    equal(ctx.js("return document.querySelector('.trend-subject').textContent"), expected[0], 'the trend is the action\'s')
    equal(ctx.js("return [...document.querySelectorAll('.trend-table tbody tr td:last-child')].map(td => td.textContent)"),
          ['1'], 'one day, one step')
    ctx.shot('32-action-durations.png')
    assert_nothing_ran(ctx)


# MARK: Runner


# MARK: Action trace


def trace_result(ctx, run_id, name):
    detail = ctx.api.get('/api/v1/runs/' + run_id)
    result = next(r for r, _, _ in run_results(detail) if r['name'] == name and r['status'] == 'failed')
    return ctx.api.get('/api/v1/results/%d' % result['id'])


def selected_step(ctx):
    return wait_until(lambda: ctx.js(
        "const v = document.querySelector('.trace-step'); return v && v.dataset.state === 'ready' ? Number(v.dataset.step) : null;"),
        message='the selected step to render')


@test
def failure_view_shows_the_action_trace_with_a_wireframe_per_step_and_what_changed(ctx):
    detail = trace_result(ctx, 'trace-bad', 'testLogin')
    check(detail.get('passingTrace') and detail['passingTrace']['runId'] == 'trace-ok',
          'the passing retry in trace-ok is the passing trace: %r' % detail.get('passingTrace'))
    ctx.open('#/results/%d' % detail['result']['id'], 'result')
    equal(ctx.js("return document.querySelectorAll('.trace-timeline .timeline-step').length"), 3, 'timeline steps')
    equal(selected_step(ctx), 2, 'the failing step is selected first')
    step = ctx.js("""const v = document.querySelector('.trace-step');
        return {action: v.querySelector('.step-action').textContent, site: v.querySelector('.step-callsite').textContent,
                duration: v.querySelector('.step-duration').textContent,
                screen: !!v.querySelector('.trace-screen img'), elements: v.querySelectorAll('.wire-element').length};""")
    equal(step['action'], 'LoginPage.tapLogin()', 'step action')
    equal(step['site'], 'LoginTests.swift:22', 'step call site')
    check(step['duration'].startswith('5.1'), 'step duration: %r' % step['duration'])
    check(step['screen'], 'the final step shows the real screenshot')
    check(step['elements'] >= 4, 'the wireframe draws the tree (%d elements)' % step['elements'])
    target = ctx.js("const r = document.querySelector('.trace-step .wire-target');"
                    "return r && ['x', 'y', 'width', 'height'].map((k) => Number(r.getAttribute(k)));")
    frame = seed.TRACE_LOGIN_FRAME
    equal(target, [frame['x'], frame['y'], frame['width'], frame['height']], 'target outlined on the wireframe (points)')
    changes = ctx.js("""return [...document.querySelectorAll('.what-changed .change')].map((li) =>
        [li.dataset.change, li.textContent]);""")
    kinds = sorted(kind for kind, _ in changes)
    equal(kinds, ['appeared', 'changed', 'vanished'], 'what changed: %r' % changes)
    text = dict(changes)
    check('login.banner' in text['vanished'] and 'Welcome back' in text['vanished'], 'the banner vanished: %r' % text)
    check('login.spinner' in text['appeared'], 'the spinner appeared: %r' % text)
    check(seed.HOSTILE_NAME in text['changed'] and 'hittable yes → no' in text['changed'], 'the button changed: %r' % text)
    equal(ctx.js("return document.querySelectorAll('img[src=\"x\"]').length"), 0, 'the hostile label made no element')
    marks = ctx.js("const s = document.querySelector('.trace-step svg'); return [s.querySelectorAll('.wire-vanished').length,"
                   " s.querySelectorAll('.wire-appeared').length, s.querySelectorAll('.wire-changed').length];")
    equal(marks, [1, 1, 1], 'vanished, appeared and changed elements highlighted on the wireframe')
    ctx.shot('trace-failing-step.png')

    # Another step: its own tree, no screenshot, no comparison; hovering a tree node outlines it on the wireframe.
    ctx.driver.find_element(By.CSS_SELECTOR, '.timeline-step[data-step="1"]').click()
    equal(selected_step(ctx), 1, 'step 2 selected')
    step = ctx.js("""const v = document.querySelector('.trace-step');
        return {action: v.querySelector('.step-action').textContent, screen: !!v.querySelector('.trace-screen'),
                changes: !!v.querySelector('.what-changed'), target: !!v.querySelector('.wire-target'),
                labels: [...v.querySelectorAll('.wire-label')].map((t) => t.textContent)};""")
    equal(step['action'], 'LoginPage.typeEmail(_:)', 'step 2 action')
    check(not step['screen'] and not step['changes'], 'a middle step has a wireframe only')
    check(step['target'], 'step 2 outlines its text field')
    check('Sign in' in step['labels'], 'wireframe labels from the tree: %r' % step['labels'])
    ActionChains(ctx.driver).move_to_element(ctx.driver.find_element(By.CSS_SELECTOR, '.trace-step .tree-node[data-identifier="login.email"]')).perform()
    wait_until(lambda: ctx.js("const h = document.querySelector('.trace-step .wire-hover'); return h.getAttribute('visibility') === 'visible'"
                              " && Number(h.getAttribute('y')) === 300;"), message='the hovered node outlined on the wireframe')


@test
def failure_without_a_passing_trace_says_so(ctx):
    detail = trace_result(ctx, 'trace-bad', 'testNeverPassed')
    ctx.open('#/results/%d' % detail['result']['id'], 'result')
    equal(selected_step(ctx), 2, 'the failing step is selected')
    state = ctx.js("const w = document.querySelector('.what-changed'); return w && [w.dataset.state, w.textContent];")
    equal(state[0], 'no-passing', 'what changed without a passing trace')
    check('No passing result' in state[1], state[1])


@test
def download_with_outline_burns_the_outline_into_a_png(ctx):
    detail = trace_result(ctx, 'trace-bad', 'testLogin')
    ctx.open('#/results/%d' % detail['result']['id'], 'result')
    ctx.js("window.__blobs = []; const original = URL.createObjectURL;"
           "URL.createObjectURL = (blob) => { window.__blobs.push(blob); return original(blob); };")
    ctx.js("document.querySelector('.download-outline').click()")
    wait_until(lambda: ctx.js("return window.__blobs.length"), message='the outlined PNG')
    frame = seed.TRACE_LOGIN_FRAME
    pixels = ctx.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const [x, y] = [arguments[0], arguments[1]];
        const blob = window.__blobs[0];
        createImageBitmap(blob).then((bitmap) => {
          const canvas = document.createElement('canvas');
          canvas.width = bitmap.width; canvas.height = bitmap.height;
          const c = canvas.getContext('2d'); c.drawImage(bitmap, 0, 0);
          const at = (px, py) => Array.from(c.getImageData(px, py, 1, 1).data.slice(0, 3));
          done({type: blob.type, size: [bitmap.width, bitmap.height], edge: at(x + 1, y + 1), inside: at(x + 40, y + 25), outside: at(2, 2)});
        }).catch((e) => done({error: String(e)}));""", frame['x'], frame['y'])
    equal(pixels.get('type'), 'image/png', 'a PNG: %r' % pixels)
    equal(pixels['size'], [393, 852], 'the screenshot size')
    check(pixels['edge'][0] > 200 and pixels['edge'][1] < 80, 'the outline is drawn at the frame: %r' % pixels)
    equal(pixels['inside'], [240, 240, 245], 'inside the outline is the screenshot')
    equal(pixels['outside'], [240, 240, 245], 'the rest is the screenshot')
    stored = ctx.js("return fetch(document.getElementById('screenshot').src).then((r) => r.arrayBuffer()).then((b) => b.byteLength)")
    check(stored > 0, 'the stored screenshot is still served')


@test
def the_sample_suite_failure_has_a_trace_timeline(ctx):
    detail = failure_with_frame(ctx, MAIN_RUN)
    check(detail is not None, 'the seeded suite run has a failure with a screenshot')
    trees = [step.get('elementTree') for step in detail['trail']]
    check(trees and all(trees), 'every step of the reporter\'s failing test has a tree: %r' % trees)
    ctx.open('#/results/%d' % detail['result']['id'], 'result')
    equal(ctx.js("return document.querySelectorAll('.trace-timeline .timeline-step').length"), len(detail['trail']),
          'a timeline step per trail step')
    selected_step(ctx)
    check(ctx.js("return document.querySelectorAll('.trace-step .wire-element').length") > 3, 'the failing step\'s wireframe')
    ctx.shot('trace-sample-suite.png')


def seed_api_runs(api):
    seed.seed_trace_runs(api)
    seed.seed_flaky_runs(api)
    seed.seed_hostile_run(api)
    seed.seed_untrusted_text_run(api)
    seed.seed_unit_test_run(api, UNIT_RUN)
    seed.seed_flip_rate_runs(api)
    seed.seed_comparison_runs(api)
    seed.seed_quarantine(api)
    png = seed.small_png()
    sha = api.put_png(png)
    seed_errors.seed_error_runs(api, screenshot=(sha, len(png), 393, 852))
    seed.seed_large_run(api, LARGE_RUN, LARGE_COUNT, screenshot=(sha, len(png), 393, 852))


def console_errors(ctx):
    errors = []
    for entry in ctx.driver.get_log('browser'):
        if entry.get('level') != 'SEVERE':
            continue
        message = entry.get('message', '')
        if any(pattern.search(message) for pattern in ctx.allowed_console):
            continue
        errors.append(message)
    return errors


def main():
    api = seed.API(BASE, TOKEN)
    try:
        seed_api_runs(api)
    except Exception:
        traceback.print_exc()
        print('FAIL seeding the service through its API')
        print('0 passed, 1 failed')
        return 1
    only = set(sys.argv[1:])
    driver = chromium()
    # Any alert() the page manages to call is recorded instead of blocking (and then reported).
    driver.execute_cdp_cmd('Page.addScriptToEvaluateOnNewDocument', {'source':
        'window.__alerts = []; window.alert = (m) => window.__alerts.push(String(m));'})
    ctx = Context(driver, api)
    if READ_TOKEN and only and 'read_token_prompt_unlocks_the_dashboard' not in only:
        driver.get(BASE + '/favicon.svg')  # same origin, no API request before the token is stored
        driver.execute_script("localStorage.setItem('failscope.readToken', arguments[0])", READ_TOKEN)
        driver.get_log('browser')  # drop the image document's /favicon.ico 404
    passed = failed = 0
    try:
        for function in TESTS:
            if only and function.__name__ not in only:
                continue
            ctx.allowed_console = []
            started = time.monotonic()
            try:
                function(ctx)
                errors = console_errors(ctx)
                check(not errors, 'browser console errors:\n      ' + '\n      '.join(errors))
                passed += 1
                print('PASS %s (%.1f s)' % (function.__name__, time.monotonic() - started))
            except Exception as error:
                failed += 1
                print('FAIL %s (%.1f s): %s' % (function.__name__, time.monotonic() - started, error))
                if not isinstance(error, AssertionError):
                    traceback.print_exc()
                try:
                    os.makedirs(OUTPUT, exist_ok=True)
                    driver.save_screenshot(os.path.join(OUTPUT, 'FAILED-%s.png' % function.__name__))
                except Exception:
                    pass
                alert_text(driver)
    finally:
        driver.quit()
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == '__main__':
    sys.exit(main())
