"""Seeds a Failscope service through its ingest API (stdlib only): hostile strings and large runs.

Used by the browser tests (scripts/browser-tests.sh) and the dashboard benchmark
(scripts/bench/dashboard.sh). Every call raises on a non-2xx answer.
"""
import datetime
import hashlib
import json
import random
import struct
import urllib.error
import urllib.request
import zlib

HOSTILE_NAME = '<img src=x onerror=alert(1)>'
HOSTILE_MESSAGE = 'expected "ok" but got </script><script>alert(1)</script> & <b>bold</b>'
HOSTILE_PAGE = '<svg onload=alert(1)>Page'
HOSTILE_BRANCH = '"><img src=y onerror=alert(2)>'


class API:
    def __init__(self, base, token):
        self.base = base.rstrip('/')
        self.token = token

    def call(self, method, path, body=None, content_type='application/json'):
        data = None
        headers = {'Authorization': 'Bearer ' + self.token}
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            headers['Content-Type'] = content_type
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                text = response.read()
                return json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            raise RuntimeError('%s %s: %s %s' % (method, path, error.code, error.read().decode(errors='replace')))

    def get(self, path):
        """A read; the upload token is sent, which the service accepts when reads need a token."""
        request = urllib.request.Request(self.base + path, headers={'Accept': 'application/json',
                                                                    'Authorization': 'Bearer ' + self.token})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    def put_run(self, run):
        return self.call('PUT', '/api/v1/runs/' + run['id'], run)

    def post_results(self, run_id, results):
        for result in results:
            for key in ('failures', 'trail', 'artifacts'):
                result.setdefault(key, [])
        return self.call('POST', '/api/v1/runs/' + run_id + '/results', {'results': results})

    def finish(self, run_id, finished_at):
        return self.call('POST', '/api/v1/runs/' + run_id + '/finish', {'finishedAt': finished_at})

    def put_png(self, png):
        sha = hashlib.sha256(png).hexdigest()
        self.call('PUT', '/api/v1/artifacts/' + sha, png, content_type='image/png')
        return sha


def iso(moment):
    return moment.astimezone(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.') + '%03dZ' % (moment.microsecond // 1000)


def small_png(width=393, height=852, color=(240, 240, 245), box=(16, 300, 361, 50)):
    """A plain 1x RGB PNG with one 3-pixel outlined box `(x, y, width, height)`, standing in for a
    screen. Written with zlib alone (PNG specification, ISO/IEC 15948: IHDR, IDAT, IEND; filter 0)."""
    x, y, w, h = box
    outline = (200, 30, 60)
    plain = bytes(color) * width
    def row(r):
        if r < y or r >= y + h:
            return plain
        if r < y + 3 or r >= y + h - 3:
            return bytes(color) * x + bytes(outline) * w + bytes(color) * (width - x - w)
        return (bytes(color) * x + bytes(outline) * 3 + bytes(color) * (w - 6) + bytes(outline) * 3
                + bytes(color) * (width - x - w))
    raw = b''.join(b'\x00' + row(r) for r in range(height))
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(raw, 6)) + chunk(b'IEND', b''))


def seed_hostile_run(api, run_id='hostile-run'):
    """A run whose test name, message, page and branch are HTML/script payloads. Returns the run id."""
    now = datetime.datetime.now(datetime.timezone.utc)
    api.put_run({'id': run_id, 'project': 'demo', 'branch': HOSTILE_BRANCH, 'commit': 'deadbeefcafe',
                 'device': 'iPhone 15', 'osVersion': 'iOS 17.5 (simulated)', 'source': 'junit',
                 'ciProvider': 'evil', 'ciBuildURL': 'javascript:alert(3)',
                 'startedAt': iso(now - datetime.timedelta(minutes=1))})
    png = small_png()
    sha = api.put_png(png)
    api.post_results(run_id, [
        {'suite': 'XSSTests', 'name': HOSTILE_NAME, 'attempt': 1, 'status': 'failed', 'duration': 1.5,
         'startedAt': iso(now - datetime.timedelta(seconds=50)),
         'failures': [{'message': HOSTILE_MESSAGE, 'page': HOSTILE_PAGE, 'action': 'tap(<i>x</i>)',
                       'location': {'file': '/src/<script>.swift', 'line': 7},
                       'callSite': {'file': '/src/XSSTests.swift', 'line': 12},
                       'elementFrame': {'x': 16, 'y': 300, 'width': 361, 'height': 50}, 'isError': False}],
         'trail': [{'page': HOSTILE_PAGE, 'action': 'tap(<i>x</i>)', 'callSite': {'file': '/src/XSSTests.swift', 'line': 12}}],
         'artifacts': [{'sha256': sha, 'kind': 'screenshot', 'byteCount': len(png), 'width': 393, 'height': 852}],
         'systemOut': '<script>alert(4)</script>'},
        {'suite': 'XSSTests', 'name': 'testPlain', 'attempt': 1, 'status': 'passed', 'duration': 0.25,
         'startedAt': iso(now - datetime.timedelta(seconds=40))},
    ])
    api.finish(run_id, iso(now))
    return run_id


# Text that misleads without any markup: a zero-width space makes 'ma<ZWSP>in' look like 'main', a right-to-left
# override shows 'found 001' reversed, isolates reorder the neighbouring fields. And a CI link that browsers
# read as protocol-relative ('/\\evil.example/x' becomes http://evil.example/x).
UNTRUSTED_BRANCH = 'ma\u200bin'
UNTRUSTED_COMMIT = '\u202ecafe0123'
UNTRUSTED_NAME = 'testFound\u202e001'
UNTRUSTED_MESSAGE = 'found \u2066100\u2069 items \ufeff'
OFF_SITE_CI_URL = '/\\evil.example/x'


def seed_untrusted_text_run(api, run_id='bidi-run'):
    """A run whose branch, commit, test name and message hold invisible and bidi control characters, and
    whose CI build URL is an off-site path in disguise; the test fails, then passes on retry (flaky).
    Returns the run id."""
    now = datetime.datetime.now(datetime.timezone.utc)
    api.put_run({'id': run_id, 'project': 'demo', 'branch': UNTRUSTED_BRANCH, 'commit': UNTRUSTED_COMMIT,
                 'device': 'iPhone 15', 'osVersion': 'iOS 17.5 (simulated)', 'source': 'junit',
                 'ciProvider': 'sneaky', 'ciBuildURL': OFF_SITE_CI_URL,
                 'startedAt': iso(now - datetime.timedelta(minutes=2))})
    api.post_results(run_id, [
        {'suite': 'BidiTests', 'name': UNTRUSTED_NAME, 'attempt': 1, 'status': 'failed', 'duration': 0.5,
         'startedAt': iso(now - datetime.timedelta(seconds=90)),
         'failures': [{'message': UNTRUSTED_MESSAGE, 'page': 'ItemPage', 'isError': False,
                       'location': {'file': '/src/BidiTests.swift', 'line': 3}}]},
        # Its retry passes: a pass and a fail on one commit, so the test is flaky on the disguised branch.
        {'suite': 'BidiTests', 'name': UNTRUSTED_NAME, 'attempt': 2, 'status': 'passed', 'duration': 0.4,
         'startedAt': iso(now - datetime.timedelta(seconds=80))},
    ])
    api.finish(run_id, iso(now - datetime.timedelta(seconds=60)))
    return run_id


PAGES = ['LoginPage', 'CatalogPage', 'ItemPage', 'SettingsPage', 'CartPage', 'CheckoutPage', 'ProfilePage',
         'SearchPage', 'OrdersPage', 'MessagePage']


def seed_large_run(api, run_id, count, failing_fraction=0.04, seed=7, screenshot=None, batch=1000):
    """A run with `count` results over 10 pages and 20 suites, a few percent failing; failures reference
    `screenshot` (sha256, bytes, width, height) when given. Returns the run id."""
    rng = random.Random(seed)
    now = datetime.datetime.now(datetime.timezone.utc)
    api.put_run({'id': run_id, 'project': 'large', 'branch': 'main', 'commit': '%040x' % rng.getrandbits(160),
                 'device': 'iPhone 15', 'osVersion': 'iOS 17.5 (simulated)', 'source': 'junit',
                 'startedAt': iso(now - datetime.timedelta(minutes=30))})
    results = []
    for index in range(count):
        page = PAGES[index % len(PAGES)]
        suite = 'Suite%02d' % (index % 20)
        roll = rng.random()
        status = 'failed' if roll < failing_fraction else 'error' if roll < failing_fraction * 1.25 else \
            'skipped' if roll < failing_fraction * 1.25 + 0.02 else 'passed'
        call_site = {'file': '/ci/Tests/UITests/%sTests.swift' % suite, 'line': 10 + (index % 37)}
        result = {'suite': suite, 'name': 'test%s%05d' % (page.replace('Page', ''), index), 'attempt': 1,
                  'status': status, 'duration': round(rng.uniform(0.2, 9.0), 3),
                  'trail': [{'page': page, 'action': 'verifyShown()', 'callSite': call_site}]}
        if status in ('failed', 'error'):
            result['failures'] = [{'message': '%s: timed out after 5 s waiting until Button matching \'%s.submit\' is hittable'
                                   % (page, page.lower()), 'page': page, 'action': page + '.tapSubmit()',
                                   'callSite': call_site, 'location': call_site, 'isError': status == 'error',
                                   'elementFrame': {'x': 16, 'y': 300, 'width': 361, 'height': 50}}]
            if screenshot:
                sha, size, width, height = screenshot
                result['artifacts'] = [{'sha256': sha, 'kind': 'screenshot', 'byteCount': size, 'width': width,
                                        'height': height}]
        if status == 'skipped':
            result['skipReason'] = 'not on this device'
        results.append(result)
    for start in range(0, count, batch):
        api.post_results(run_id, results[start:start + batch])
    api.finish(run_id, iso(now))
    return run_id


def seed_flaky_runs(api, commit='f1a4e0c0ffee5eed0000000000000000000000aa'):
    """Two runs on one commit where `testSignInFlaky` fails then passes on retry (a same-commit
    contradiction: flaky on LoginPage) and `testAlwaysBroken` fails every time (broken, never flaky).
    Returns the run ids."""
    now = datetime.datetime.now(datetime.timezone.utc)
    site = {'file': '/ci/Tests/DemoUITests/LoginTests.swift', 'line': 60}
    broken_site = {'file': '/ci/Tests/DemoUITests/LoginTests.swift', 'line': 71}
    ids = []
    # The passing retry carries a screenshot of LoginPage (as an importer may attach), so the later
    # failure on LoginPage has a "last passing" screenshot to compare with.
    passing_png = small_png(color=(225, 245, 230), box=(16, 263, 361, 50))
    passing_sha = api.put_png(passing_png)
    for index, (device, size) in enumerate([('iPhone 15', (393, 852)), ('iPhone SE (3rd generation)', (375, 667))]):
        frame = {'x': 16, 'y': 263, 'width': size[0] - 32, 'height': 50}
        failing_png = small_png(size[0], size[1], color=(250, 232, 236), box=(16, 263, size[0] - 32, 50))
        failing_sha = api.put_png(failing_png)
        run_id = 'flaky-%d' % (index + 1)
        started = now - datetime.timedelta(minutes=10 - index)
        api.put_run({'id': run_id, 'project': 'demo', 'branch': 'main', 'commit': commit, 'device': device,
                     'source': 'junit', 'startedAt': iso(started)})
        trail = [{'page': 'LoginPage', 'callSite': {'file': site['file'], 'line': 58}},
                 {'page': 'LoginPage', 'action': 'tapLogin()', 'callSite': site}]
        failure = {'message': 'LoginPage: timed out after 5 s waiting until StaticText matching \'hello.title\' exists',
                   'page': 'LoginPage', 'action': 'tapLogin()', 'callSite': site, 'location': site,
                   'elementFrame': frame, 'isError': False}
        api.post_results(run_id, [
            {'suite': 'LoginTests', 'name': 'testSignInFlaky', 'attempt': 1, 'status': 'failed', 'duration': 5.2,
             'startedAt': iso(started + datetime.timedelta(seconds=1)), 'failures': [failure], 'trail': trail,
             'artifacts': [{'sha256': failing_sha, 'kind': 'screenshot', 'byteCount': len(failing_png), 'width': size[0],
                            'height': size[1]}]},
            {'suite': 'LoginTests', 'name': 'testSignInFlaky', 'attempt': 2, 'status': 'passed', 'duration': 1.1,
             'startedAt': iso(started + datetime.timedelta(seconds=7)), 'trail': trail,
             'artifacts': [{'sha256': passing_sha, 'kind': 'screenshot', 'byteCount': len(passing_png), 'width': 393,
                            'height': 852}]},
            {'suite': 'LoginTests', 'name': 'testAlwaysBroken', 'attempt': 1, 'status': 'failed', 'duration': 0.4,
             'startedAt': iso(started + datetime.timedelta(seconds=9)),
             'failures': [dict(failure, message='XCTAssertEqual failed: ("Welcome") is not equal to ("Hello")',
                               callSite=broken_site, location=broken_site, action='verifyGreeting()')],
             'trail': [{'page': 'LoginPage', 'action': 'verifyGreeting()', 'callSite': broken_site}]},
        ])
        api.finish(run_id, iso(started + datetime.timedelta(seconds=12)))
        ids.append(run_id)
    return ids


UNIT_COMMIT = '0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c'


def seed_unit_test_run(api, run_id='unit-run'):
    """A reporter run of unit tests (no page, no call site, no screenshot, no device): a failure and a
    thrown error with their failure locations, a failure that passed on retry, a pass and a skip with a
    reason. Returns the run id."""
    now = datetime.datetime.now(datetime.timezone.utc)
    started = now - datetime.timedelta(minutes=3)
    api.put_run({'id': run_id, 'project': 'demo', 'branch': 'main', 'commit': UNIT_COMMIT, 'source': 'reporter',
                 'startedAt': iso(started)})
    at = lambda seconds: iso(started + datetime.timedelta(seconds=seconds))
    math = '/ci/Tests/MathTests/MathTests.swift'
    parser = '/ci/Tests/ParserTests/ParserTests.swift'
    api.post_results(run_id, [
        {'suite': 'MathTests', 'name': 'testAddition', 'attempt': 1, 'status': 'passed', 'duration': 0.002, 'startedAt': at(1)},
        {'suite': 'MathTests', 'name': 'testDivision', 'attempt': 1, 'status': 'failed', 'duration': 0.004, 'startedAt': at(2),
         'failures': [{'message': 'XCTAssertEqual failed: ("0.33") is not equal to ("0.3333")',
                       'location': {'file': math, 'line': 27}, 'isError': False}]},
        {'suite': 'ParserTests', 'name': 'testEmptyInput', 'attempt': 1, 'status': 'error', 'duration': 0.001, 'startedAt': at(3),
         'failures': [{'message': 'caught error: "ParseError.unexpectedEnd"', 'location': {'file': parser, 'line': 14},
                       'isError': True}]},
        {'suite': 'ParserTests', 'name': 'testNestedLists', 'attempt': 1, 'status': 'failed', 'duration': 0.01, 'startedAt': at(4),
         'failures': [{'message': 'XCTAssertTrue failed', 'location': {'file': parser, 'line': 41}, 'isError': False}]},
        {'suite': 'ParserTests', 'name': 'testNestedLists', 'attempt': 2, 'status': 'passed', 'duration': 0.01, 'startedAt': at(5)},
        {'suite': 'ParserTests', 'name': 'testUnicode', 'attempt': 1, 'status': 'skipped', 'duration': 0, 'startedAt': at(6),
         'skipReason': 'needs ICU data'},
    ])
    api.finish(run_id, at(8))
    return run_id


def seed_flip_rate_runs(api, count=12, project='fliprate'):
    """`count` runs on branch main, one commit each, of one test that fails and passes by turns: flaky by
    its flip rate alone (no commit has both outcomes). Returns the run ids, oldest first."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ids = []
    for index in range(count):
        started = now - datetime.timedelta(minutes=5 * (count - index))
        run_id = 'flip-%02d' % (index + 1)
        api.put_run({'id': run_id, 'project': project, 'branch': 'main', 'commit': '%040x' % (0xf11b0000 + index),
                     'source': 'reporter', 'startedAt': iso(started)})
        failed = index % 2 == 0
        result = {'suite': 'ToastTests', 'name': 'testToastDisappears', 'attempt': 1,
                  'status': 'failed' if failed else 'passed', 'duration': 0.8, 'startedAt': iso(started)}
        if failed:
            result['failures'] = [{'message': 'XCTAssertFalse failed: the toast is still shown',
                                   'location': {'file': '/ci/Tests/ToastTests.swift', 'line': 19}, 'isError': False}]
        api.post_results(run_id, [result])
        api.finish(run_id, iso(started + datetime.timedelta(seconds=2)))
        ids.append(run_id)
    return ids


def seed_comparison_runs(api, project='compare'):
    """Two finished runs of `project`: 'cmp-main' on main, then 'cmp-feature' on a feature branch, that differ in
    every way a comparison lists: a new failure (testA), a new failing test named HOSTILE_NAME on HOSTILE_PAGE, one
    still failing (testB), one fixed (testC), one removed (testGone), one added (testAdded), one much slower
    (testSlow: 1 s, then 3 s). Returns (main run id, feature run id)."""
    now = datetime.datetime.now(datetime.timezone.utc)

    def result(name, passes, seconds, page='CartPage', line=20, message='XCTAssertTrue failed: the total is wrong'):
        entry = {'suite': 'CartTests', 'name': name, 'attempt': 1, 'status': 'passed' if passes else 'failed',
                 'duration': seconds}
        if not passes:
            entry['failures'] = [{'message': message, 'page': page, 'action': 'checkout()',
                                  'location': {'file': '/ci/Tests/CartTests.swift', 'line': line + 2},
                                  'callSite': {'file': '/ci/Tests/CartTests.swift', 'line': line}, 'isError': False}]
        return entry

    runs = [
        ('cmp-main', 'main', 20, [result('testA', True, 1), result('testB', False, 1, line=30),
                                  result('testC', False, 1), result('testGone', True, 1),
                                  result('testSlow', True, 1)]),
        ('cmp-feature', 'feature/compare', 10, [result('testA', False, 1, line=40), result('testB', False, 1, line=30),
                                                result('testC', True, 1), result('testSlow', True, 3),
                                                result('testAdded', True, 1),
                                                result(HOSTILE_NAME, False, 1, page=HOSTILE_PAGE, line=50,
                                                       message=HOSTILE_MESSAGE)]),
    ]
    for run_id, branch, minutes_ago, results in runs:
        started = now - datetime.timedelta(minutes=minutes_ago)
        api.put_run({'id': run_id, 'project': project, 'branch': branch, 'commit': '%040x' % (0xc0 + minutes_ago),
                     'source': 'reporter', 'startedAt': iso(started)})
        api.post_results(run_id, results)
        api.finish(run_id, iso(started + datetime.timedelta(seconds=30)))
    return runs[0][0], runs[1][0]


def element(kind, identifier='', label='', frame=(0, 0, 0, 0), value=None, enabled=True, hittable=True, children=()):
    """One element of an element tree as the reporter's element_tree artifact encodes it (SimulatedUI's
    ScreenSnapshot: frames as [[x, y], [width, height]] in points)."""
    x, y, w, h = frame
    node = {'elementType': kind, 'identifier': identifier, 'label': label, 'frame': [[x, y], [w, h]],
            'isEnabled': enabled, 'isSelected': False, 'hasFocus': False, 'isHittable': hittable, 'options': [],
            'children': list(children)}
    if value is not None:
        node['value'] = value
    return node


def screen_tree(*children):
    """An iPhone 15 screen (393 × 852 pt @3x) with `children` under its application element."""
    return {'device': {'name': 'iPhone 15', 'idiom': 'phone', 'width': 393, 'height': 852, 'scale': 3,
                       'safeAreaTop': 59, 'safeAreaBottom': 34, 'osVersion': '17.5'},
            'root': element('application', 'app', frame=(0, 0, 393, 852), children=children), 'time': 1.5}


TRACE_LOGIN_FRAME = {'x': 16, 'y': 420, 'width': 361, 'height': 50}


def seed_trace_runs(api, project='trace'):
    """A test with an action trace in two runs: 'trace-ok' where it passed on retry (its failed first attempt and
    its passing retry both carry trees: the retry rule of docs/trace.md), and 'trace-bad' where it fails at
    LoginPage.tapLogin(): since the pass, the banner vanished, a spinner appeared, the button's label changed (to
    HOSTILE_NAME) and it is no longer hittable. A second test fails with a trace and has never passed.
    Returns (run id of the failure, run id of the pass)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    site = lambda line: {'file': '/ci/Tests/TraceTests/LoginTests.swift', 'line': line}
    email = element('textField', 'login.email', 'Email', (16, 300, 361, 44), value='a@b.c')
    button = lambda label, hittable=True: element('button', 'login.submit', label, (16, 420, 361, 50), hittable=hittable)
    start_tree = screen_tree(element('navigationBar', 'login.nav', 'Sign in', (0, 59, 393, 44)),
                             element('textField', 'login.email', 'Email', (16, 300, 361, 44), value=''))
    passing_tree = screen_tree(element('navigationBar', 'login.nav', 'Sign in', (0, 59, 393, 44)),
                               element('staticText', 'login.banner', 'Welcome back', (16, 200, 361, 30)), email,
                               button('Log In'))
    failing_tree = screen_tree(element('navigationBar', 'login.nav', 'Sign in', (0, 59, 393, 44)), email,
                               element('activityIndicator', 'login.spinner', 'In progress', (180, 500, 33, 33)),
                               button(HOSTILE_NAME, hittable=False))
    shas = {}
    for name, tree in (('start', start_tree), ('passing', passing_tree), ('failing', failing_tree)):
        body = json.dumps(tree).encode()
        sha = hashlib.sha256(body).hexdigest()
        api.call('PUT', '/api/v1/artifacts/' + sha, body, content_type='application/json')
        shas[name] = (sha, len(body))
    png = small_png(box=(0, 0, 0, 0))  # a plain screen: the only outline is the one the dashboard draws
    png_sha = api.put_png(png)
    screenshot = {'sha256': png_sha, 'kind': 'screenshot', 'byteCount': len(png), 'width': 393, 'height': 852}
    tree_ref = lambda name: {'sha256': shas[name][0], 'kind': 'element_tree', 'byteCount': shas[name][1]}

    def trail(last_tree):
        return [{'page': 'LoginPage', 'callSite': site(20), 'elementTree': shas['start'][0], 'duration': 0.2},
                {'page': 'LoginPage', 'action': 'typeEmail(_:)', 'callSite': site(21), 'elementTree': shas['start'][0],
                 'target': {'x': 16, 'y': 300, 'width': 361, 'height': 44}, 'duration': 0.4},
                {'page': 'LoginPage', 'action': 'tapLogin()', 'callSite': site(22), 'elementTree': shas[last_tree][0],
                 'target': TRACE_LOGIN_FRAME, 'duration': 5.1}]

    failure = {'message': 'LoginPage: timed out after 5 s waiting until Button matching \'login.submit\' is hittable',
               'page': 'LoginPage', 'action': 'tapLogin()', 'callSite': site(22), 'location': site(22),
               'elementFrame': TRACE_LOGIN_FRAME, 'isError': False}
    runs = [('trace-ok', 20, [
        {'suite': 'TraceTests', 'name': 'testLogin', 'attempt': 1, 'status': 'failed', 'duration': 5.7,
         'failures': [failure], 'trail': trail('failing'),
         'artifacts': [screenshot, tree_ref('failing'), tree_ref('start')]},
        {'suite': 'TraceTests', 'name': 'testLogin', 'attempt': 2, 'status': 'passed', 'duration': 1.2,
         'trail': trail('passing'), 'artifacts': [tree_ref('start'), tree_ref('passing')]},
    ]), ('trace-bad', 10, [
        {'suite': 'TraceTests', 'name': 'testLogin', 'attempt': 1, 'status': 'failed', 'duration': 5.7,
         'failures': [failure], 'trail': trail('failing'),
         'artifacts': [screenshot, tree_ref('failing'), tree_ref('start')]},
        {'suite': 'TraceTests', 'name': 'testNeverPassed', 'attempt': 1, 'status': 'failed', 'duration': 5.7,
         'failures': [failure], 'trail': trail('failing'),
         'artifacts': [screenshot, tree_ref('failing'), tree_ref('start')]},
    ])]
    for run_id, minutes_ago, results in runs:
        started = now - datetime.timedelta(minutes=minutes_ago)
        api.put_run({'id': run_id, 'project': project, 'branch': 'main', 'commit': '%040x' % (0x7ace + minutes_ago),
                     'device': 'iPhone 15', 'source': 'reporter', 'startedAt': iso(started)})
        for offset, result in enumerate(results):
            result['startedAt'] = iso(started + datetime.timedelta(seconds=offset * 10))
        api.post_results(run_id, results)
        api.finish(run_id, iso(started + datetime.timedelta(seconds=30)))
    return 'trace-bad', 'trace-ok'


HOSTILE_REASON = "it's waiting for <b>#42</b> \"fix\" & <img src=x onerror=alert(3)>"


def seed_quarantine(api, project='quarantine'):
    """A quarantine entry (hostile reason) for `CartTests.testTotal` of `project`, then a run where that test
    fails (forgiven: "failed, quarantined") and `testCheckout` passes. Returns (entry, run id)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    first = now - datetime.timedelta(minutes=5)
    api.put_run({'id': 'quarantine-seen', 'project': project, 'branch': 'main', 'source': 'junit',
                 'startedAt': iso(first)})
    api.finish('quarantine-seen', iso(first + datetime.timedelta(seconds=1)))
    expires = (now + datetime.timedelta(days=7)).strftime('%Y-%m-%d')
    entry = api.call('POST', '/api/v1/quarantine', {
        'project': project, 'suite': 'CartTests', 'name': 'testTotal', 'owner': 'ana <ana@example.com>',
        'reason': HOSTILE_REASON, 'expires': expires, 'actor': 'browser-tests'})
    started = now + datetime.timedelta(seconds=1)
    run_id = 'quarantine-run'
    api.put_run({'id': run_id, 'project': project, 'branch': 'main', 'source': 'junit', 'startedAt': iso(started)})
    api.post_results(run_id, [
        {'suite': 'CartTests', 'name': 'testTotal', 'attempt': 1, 'status': 'failed', 'duration': 0.3,
         'startedAt': iso(started + datetime.timedelta(seconds=1)),
         'failures': [{'message': 'XCTAssertEqual failed: ("9.99") is not equal to ("10.99")', 'page': 'CartPage',
                       'isError': False}],
         'trail': [{'page': 'CartPage'}]},
        {'suite': 'CartTests', 'name': 'testCheckout', 'attempt': 1, 'status': 'passed', 'duration': 0.2,
         'startedAt': iso(started + datetime.timedelta(seconds=2)), 'trail': [{'page': 'CartPage'}]},
    ])
    api.finish(run_id, iso(started + datetime.timedelta(seconds=3)))
    return entry, run_id
