"""Runs for the errors views (docs/errors.md): one broken screen behind three failures, a hostile message."""
import datetime

from seed import HOSTILE_MESSAGE, iso


def seed_error_runs(api, project='errors', screenshot=None):
    """'err-main' on main: testA passes, testB fails with a timeout. Then 'err-feature' on feature/errors: testA,
    testB and testC time out on one screen ('Timed out after N s waiting for "X"' at CheckoutTests.swift:12, the
    same screenshot `screenshot` = (sha, bytes, width, height)), testD fails with HOSTILE_MESSAGE.
    Returns (main run id, feature run id)."""
    now = datetime.datetime.now(datetime.timezone.utc)

    def failing(name, message, line, shot=None):
        entry = {'suite': 'CheckoutTests', 'name': name, 'attempt': 1, 'status': 'failed', 'duration': 2,
                 'failures': [{'message': message, 'page': 'CheckoutPage', 'action': 'pay()',
                               'location': {'file': '/ci/Tests/CheckoutTests.swift', 'line': line}, 'isError': False}]}
        if shot:
            sha, size, width, height = shot
            entry['artifacts'] = [{'sha256': sha, 'kind': 'screenshot', 'byteCount': size, 'width': width, 'height': height}]
        return entry

    passing = lambda name: {'suite': 'CheckoutTests', 'name': name, 'attempt': 1, 'status': 'passed', 'duration': 1}
    runs = [
        ('err-main', 'main', 30, [passing('testA'), failing('testB', 'Timed out after 4 s waiting for "Card"', 12)]),
        ('err-feature', 'feature/errors', 20, [
            failing('testA', 'Timed out after 5 s waiting for "Pay"', 12, screenshot),
            failing('testB', 'Timed out after 6 s waiting for "Card"', 12, screenshot),
            failing('testC', 'Timed out after 7 s waiting for "Total"', 12, screenshot),
            failing('testD', HOSTILE_MESSAGE, 40)]),
    ]
    for run_id, branch, minutes_ago, results in runs:
        started = now - datetime.timedelta(minutes=minutes_ago)
        api.put_run({'id': run_id, 'project': project, 'branch': branch, 'commit': '%040x' % (0xe0 + minutes_ago),
                     'source': 'reporter', 'startedAt': iso(started)})
        api.post_results(run_id, results)
        api.finish(run_id, iso(started + datetime.timedelta(seconds=30)))
    return runs[0][0], runs[1][0]
