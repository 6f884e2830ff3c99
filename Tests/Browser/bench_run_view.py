"""Benchmark: first render of the run view with runs of 5,000 and 50,000 results, in headless Chromium.

Measured in the page with the Performance API: from navigation start (performance.timeOrigin) to
the router's `failscope:rendered` mark, set once the view's DOM is built (the view asks for the run's
failing results first: GET /api/v1/runs/{id}?status=failed,error). Reference, in the same browser and
run: fetching and parsing the whole run's JSON alone (GET /api/v1/runs/{id}, what the view waited for
before it asked for the failing results first).
Prints one BENCH row per run size. Environment: FAILSCOPE_BENCH_URL, FAILSCOPE_BENCH_TOKEN; optional
FAILSCOPE_BENCH_LOADS (default 7), FAILSCOPE_BENCH_RESULTS (comma-separated run sizes, default 5000,50000).
"""
import os
import statistics
import sys

import seed
from browser import chromium, wait_for_view

BASE = os.environ['FAILSCOPE_BENCH_URL'].rstrip('/')
TOKEN = os.environ['FAILSCOPE_BENCH_TOKEN']
LOADS = int(os.environ.get('FAILSCOPE_BENCH_LOADS', '7'))
COUNTS = [int(n) for n in os.environ.get('FAILSCOPE_BENCH_RESULTS', '5000,50000').split(',')]
GOAL_MS = 1000


def main():
    api = seed.API(BASE, TOKEN)
    png = seed.small_png()
    sha = api.put_png(png)
    for count in COUNTS:
        measure(api, count, (sha, len(png), 393, 852))
    return 0  # the goal is reported, not enforced, like every BENCH row


def measure(api, count, screenshot):
    run = 'bench-%d' % count
    seed.seed_large_run(api, run, count, screenshot=screenshot)
    detail = api.get('/api/v1/runs/' + run)
    check = sum(len(site['results']) for group in detail['pages'] for site in group['callSites'])
    if check != count:
        raise SystemExit('seeded run has %d results, expected %d' % (check, count))

    driver = chromium()
    renders, fetches = [], []
    try:
        for index in range(LOADS + 1):  # the first load warms the HTTP cache and is not counted
            driver.get('about:blank')
            driver.get(BASE + '/#/runs/' + run)
            state = wait_for_view(driver, 'run', timeout=30)
            if state != 'ready':
                raise SystemExit('run view did not render: state %s' % state)
            rendered, data = driver.execute_script(
                "const last = (n) => { const m = performance.getEntriesByName(n); return m.length ? m[m.length - 1].startTime : null; };"
                "return [last('failscope:rendered'), last('failscope:data')];")
            cards = driver.execute_script("return document.querySelectorAll('.failure-card').length")
            fetched = driver.execute_async_script(
                "const done = arguments[arguments.length - 1]; const t0 = performance.now();"
                "fetch('/api/v1/runs/' + arguments[0], {cache: 'no-store'}).then(r => r.json())"
                ".then(j => done(performance.now() - t0)).catch(e => done(-1));", run)
            if index:
                renders.append(rendered)
                fetches.append(fetched)
            print('%s results, load %d: data at %.0f ms, rendered at %.0f ms (%d failure cards); JSON fetch+parse alone %.0f ms'
                  % (format(count, ','), index, data, rendered, cards, fetched), file=sys.stderr)
    finally:
        driver.quit()
    ours = statistics.median(renders)
    reference = statistics.median(fetches)
    print('BENCH|dashboard run view first render, %s results (median of %d loads)|%.0f ms|JSON fetch+parse alone %.0f ms|%.2f|<= %d ms'
          % (format(count, ','), LOADS, ours, reference, ours / reference if reference > 0 else float('nan'), GOAL_MS))


if __name__ == '__main__':
    sys.exit(main())
