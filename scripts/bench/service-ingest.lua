-- wrk script for scripts/bench/service.sh: POSTs unique batches of 100 results to one run.
-- Every tenth result fails with one failure record; each has one trail step (same rows as
-- `service-bench raw`). Counts non-200 answers and reports them in done().
local counter = 0
local threads = {}
local thread_number = 0

function setup(thread)
    thread:set("tid", thread_number)
    thread_number = thread_number + 1
    table.insert(threads, thread)
end

function init(args)
    errors = 0
    token = os.getenv("BENCH_TOKEN") or "bench"
    run = os.getenv("BENCH_RUN") or "ingest"
end

local failure = '[{"message":"Expected the error label","location":{"file":"/src/LoginTests.swift","line":42},'
    .. '"page":"LoginPage","action":"tapLogin()","callSite":{"file":"/src/LoginTests.swift","line":40},'
    .. '"elementFrame":{"x":16,"y":300,"width":361,"height":50},"isError":false}]'
local trail = '[{"page":"LoginPage","action":"tapLogin()","callSite":{"file":"/src/LoginTests.swift","line":40}}]'

function request()
    counter = counter + 1
    local parts = {}
    for i = 1, 100 do
        local failing = (i % 10 == 1)
        parts[i] = '{"suite":"BenchSuite","name":"w' .. tid .. '_' .. counter .. '_' .. i .. '","attempt":1,'
            .. '"status":"' .. (failing and "failed" or "passed") .. '","startedAt":"2026-11-30T04:00:00Z",'
            .. '"duration":0.5,"failures":' .. (failing and failure or '[]') .. ',"trail":' .. trail
            .. ',"artifacts":[]}'
    end
    local body = '{"results":[' .. table.concat(parts, ",") .. ']}'
    return wrk.format("POST", "/api/v1/runs/" .. run .. "/results",
        { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }, body)
end

function response(status, headers, body)
    if status ~= 200 then errors = errors + 1 end
end

function done(summary, latency, requests)
    local total = 0
    for _, thread in ipairs(threads) do total = total + thread:get("errors") end
    io.stderr:write(string.format("non-200 answers: %d\n", total))
end
