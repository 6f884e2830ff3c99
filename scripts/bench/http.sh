#!/usr/bin/env bash
# HTTP transport benchmark: requests/s with wrk against http-bench (HTTPServer, release build) and nginx
# (Debian nginx-light) serving the same bytes on loopback, in the same run.
#   1. tiny GET: a 21-byte body (ours: an in-memory route; nginx: a static file of the same size)
#   2. artifact GET: a 150 KB PNG-sized file from disk (ours: StaticFiles, sendfile; nginx: sendfile)
# Both servers: access logs off, 2 worker threads/processes, keep-alive. Prints BENCH rows on stdout.
# Env: DURATION (wrk seconds per round, default 3), ROUNDS (alternating rounds per server, best counts;
# default 3), CONNECTIONS (default 32).
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${DURATION:-3}"
connections="${CONNECTIONS:-32}"

command -v wrk >/dev/null || { echo "http.sh: wrk is not installed" >&2; exit 1; }
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "http.sh: nginx is not installed" >&2; exit 1; }
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

swift build -c release --product http-bench >&2
bench_bin="$(swift build -c release --show-bin-path)/http-bench"

work="$(mktemp -d)"
ours_pid=""
nginx_started=""
cleanup() {
    [ -n "$ours_pid" ] && kill "$ours_pid" 2>/dev/null && wait "$ours_pid" 2>/dev/null || true
    [ -n "$nginx_started" ] && "$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -s stop 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

mkdir -p "$work/files" "$work/nginx/logs"
chmod 755 "$work" "$work/files"  # nginx workers run unprivileged when started as root
printf 'hello from failscope\n' >"$work/files/tiny"
head -c 153600 /dev/urandom >"$work/files/artifact.png"

ours_port="$(free_port)"
"$bench_bin" --port "$ours_port" --threads 2 --root "$work/files" 2>"$work/ours.log" &
ours_pid=$!

nginx_port="$(free_port)"
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    types { image/png png; text/plain txt; }
    default_type text/plain;
    server {
        listen 127.0.0.1:$nginx_port;
        location /files/ { alias $work/files/; }
    }
}
CONF
"$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" 2>&2
nginx_started=1

wait_for() {  # url: retry a bounded number of times until the server answers
    for _ in $(seq 1 200); do curl -sf -o /dev/null "$1" && return 0; python3 -c 'import select; select.select([],[],[],0.05)'; done
    echo "http.sh: $1 never answered" >&2
    return 1
}
wait_for "http://127.0.0.1:$ours_port/tiny"
wait_for "http://127.0.0.1:$nginx_port/files/tiny"

# Same bytes from both?
cmp <(curl -s "http://127.0.0.1:$ours_port/files/artifact.png") <(curl -s "http://127.0.0.1:$nginx_port/files/artifact.png") >&2

# CPU ticks (user + system) used so far by the given processes.
cpu_ticks() { for pid in "$@"; do awk '{ print $14 + $15 }' "/proc/$pid/stat"; done | awk '{ s += $1 } END { print s }'; }
nginx_pids() { local master; master="$(cat "$work/nginx/nginx.pid")"; echo "$master" $(ps -o pid= --ppid "$master"); }
tick_us="$(python3 -c 'import os; print(1e6 / os.sysconf("SC_CLK_TCK"))')"

# measure url pids... → "requests/s cpu-us-per-request" (wrk, 2 threads)
measure() {
    local url="$1" before after out
    shift
    before="$(cpu_ticks "$@")"
    out="$(wrk -t2 -c"$connections" -d"${duration}s" "$url" 2>&1)"
    after="$(cpu_ticks "$@")"
    echo "$out" >>"$work/wrk.log"
    echo "$out" | python3 -c "
import re, sys
text = sys.stdin.read()
requests = int(re.search(r'(\d+) requests in', text).group(1))
rps = float(re.search(r'Requests/sec:\s+([\d.]+)', text).group(1))
print(f'{rps:.0f} {($after - $before) * $tick_us / max(requests, 1):.1f}')"
}
# The machine is shared, so each server is measured ROUNDS times, alternating, and its best round counts
# (the round least disturbed by other load). CPU per request comes from that same round.
rounds="${ROUNDS:-3}"
best() {  # "rps cpu" lines → the line with the highest rps
    sort -k1,1 -n -r | head -1
}
row() {  # measure ours_url nginx_url goal
    local ours_runs="" nginx_runs=""
    for _ in $(seq 1 "$rounds"); do
        ours_runs+="$(measure "$2" "$ours_pid")"$'\n'
        nginx_runs+="$(measure "$3" $(nginx_pids))"$'\n'
    done
    read -r ours_rps ours_cpu <<<"$(printf '%s' "$ours_runs" | best)"
    read -r nginx_rps nginx_cpu <<<"$(printf '%s' "$nginx_runs" | best)"
    echo "BENCH|$1|$ours_rps req/s|nginx $nginx_rps req/s|$(python3 -c "print(f'{$ours_rps/$nginx_rps:.2f}')")x|$4"
    echo "BENCH|$1: server CPU per request|$ours_cpu us|nginx $nginx_cpu us|$(python3 -c "print(f'{$ours_cpu/max($nginx_cpu, 0.01):.2f}')")x|informational (lower is better)"
}

row "HTTP tiny GET (21 B, keep-alive, ${connections} conns)" \
    "http://127.0.0.1:$ours_port/tiny" "http://127.0.0.1:$nginx_port/files/tiny" "informational"
row "HTTP artifact file GET (150 KB, keep-alive, ${connections} conns)" \
    "http://127.0.0.1:$ours_port/files/artifact.png" "http://127.0.0.1:$nginx_port/files/artifact.png" ">= 1.0x"
cat "$work/wrk.log" >&2
