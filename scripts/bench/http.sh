#!/usr/bin/env bash
# HTTP transport benchmark: requests/s with wrk against http-bench (HTTPServer, release build) and nginx
# (Debian nginx-light) serving the same bytes on loopback, in the same run.
#   1. tiny GET: a 21-byte body (ours: an in-memory route; nginx: a static file of the same size)
#   2. artifact GET: a 150 KB PNG-sized file from disk (ours: StaticFiles, sendfile; nginx: sendfile)
# Both servers: access logs off, 2 worker threads/processes, keep-alive. Prints BENCH rows on stdout.
# Env: DURATION (wrk seconds, default 3), CONNECTIONS (default 32).
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

rps() {  # url → requests/s (wrk, 2 threads)
    wrk -t2 -c"$connections" -d"${duration}s" "$1" 2>&1 | tee -a "$work/wrk.log" | awk '/^Requests\/sec:/ { printf "%.0f", $2 }'
}
row() {  # measure ours_url nginx_url goal
    local ours nginx ratio
    ours="$(rps "$2")"
    nginx="$(rps "$3")"
    ratio="$(python3 -c "print(f'{$ours/$nginx:.2f}')")"
    echo "BENCH|$1|$ours req/s|nginx $nginx req/s|${ratio}x|$4"
}

row "HTTP tiny GET (21 B, keep-alive, ${connections} conns)" \
    "http://127.0.0.1:$ours_port/tiny" "http://127.0.0.1:$nginx_port/files/tiny" "informational"
row "HTTP artifact file GET (150 KB, keep-alive, ${connections} conns)" \
    "http://127.0.0.1:$ours_port/files/artifact.png" "http://127.0.0.1:$nginx_port/files/artifact.png" ">= 1.0x"
cat "$work/wrk.log" >&2
