#!/usr/bin/env bash
# HTTP benchmark: requests/s with wrk against http-bench (release build) and nginx (Debian nginx-light) serving
# the same bytes on loopback, in the same run.
#   1. artifact GET: `GET /artifacts/{sha256}.png` of a stored 150 KB PNG through the whole failscope service
#      (http-bench --service: store, router, metrics; access log off), against nginx serving the same file
#      from the same artifact folder with the same headers (image/png, immutable Cache-Control, ETag, nosniff,
#      Content-Security-Policy: sandbox).
#   2. tiny GET (informational): a 21-byte body from an in-memory route of HTTPServer alone, against a static
#      file of the same size.
# Fairness: both servers get THREADS workers (default 2: libmicrohttpd's thread pool, each thread polling its connections, nginx
# worker_processes), access logs off, keep-alive on (nginx keepalive_requests raised), the same wrk settings.
# The machine is shared, so the servers are measured alternately for ROUNDS rounds and the medians are
# reported, with each server's CPU time per request (user + system ticks from /proc/PID/stat, steadier than
# req/s). Prints BENCH rows on stdout, everything else on stderr.
# Env: DURATION (wrk seconds per round, default 3), ROUNDS (default 5), CONNECTIONS (default 32), THREADS (2).
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${DURATION:-3}"
connections="${CONNECTIONS:-32}"
rounds="${ROUNDS:-5}"
threads="${THREADS:-2}"

command -v wrk >/dev/null || { echo "http.sh: wrk is not installed" >&2; exit 1; }
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "http.sh: nginx is not installed" >&2; exit 1; }
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

swift build -c release --product http-bench >&2
bench_bin="$(swift build -c release --show-bin-path)/http-bench"

work="$(mktemp -d)"
pids=()
nginx_started=""
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
    [ -n "$nginx_started" ] && "$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -s stop 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

mkdir -p "$work/files" "$work/data" "$work/nginx/logs"
printf 'hello from failscope\n' >"$work/files/tiny"
# A real PNG of ~150 KB (random pixels do not compress), so the service's upload verification accepts it.
python3 - "$work/artifact.png" <<'PY'
import random, struct, sys, zlib
random.seed(7)
width, height = 200, 250
raw = b"".join(b"\0" + bytes(random.getrandbits(8) for _ in range(width * 3)) for _ in range(height))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
PY
sha="$(sha256sum "$work/artifact.png" | cut -d' ' -f1)"
artifact_file="$work/data/artifacts/${sha:0:2}/${sha:2:2}/$sha"
bytes="$(stat -c %s "$work/artifact.png")"

service_port="$(free_port)"
"$bench_bin" --service "$work/data" --artifact "$work/artifact.png" --port "$service_port" --threads "$threads" \
    2>"$work/service.log" &
service_pid=$!
pids+=("$service_pid")
transport_port="$(free_port)"
"$bench_bin" --port "$transport_port" --threads "$threads" --root "$work/files" 2>"$work/transport.log" &
transport_pid=$!
pids+=("$transport_pid")

wait_for() {  # url: retry a bounded number of times until the server answers
    for _ in $(seq 1 400); do curl -sf -o /dev/null "$1" && return 0; python3 -c 'import select; select.select([],[],[],0.05)'; done
    echo "http.sh: $1 never answered" >&2
    cat "$work"/*.log >&2
    return 1
}
wait_for "http://127.0.0.1:$service_port/artifacts/$sha.png"
wait_for "http://127.0.0.1:$transport_port/tiny"

nginx_port="$(free_port)"
chmod -R a+rX "$work"  # nginx workers run unprivileged when started as root
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes $threads;
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
    types { text/plain txt; }
    default_type text/plain;
    server {
        listen 127.0.0.1:$nginx_port;
        location /files/ { alias $work/files/; }
        location ~ "^/artifacts/(([0-9a-f]{2})([0-9a-f]{2})[0-9a-f]{60})\\.png\$" {
            alias $work/data/artifacts/\$2/\$3/\$1;
            types { } default_type image/png;
            add_header Cache-Control "public, max-age=31536000, immutable";
            add_header X-Content-Type-Options nosniff;
            add_header Content-Security-Policy sandbox;
        }
        location / { return 404; }
    }
}
CONF
"$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" 2>&2
nginx_started=1
wait_for "http://127.0.0.1:$nginx_port/artifacts/$sha.png"

ours_artifact="http://127.0.0.1:$service_port/artifacts/$sha.png"
nginx_artifact="http://127.0.0.1:$nginx_port/artifacts/$sha.png"
# Same bytes from both, and the headers each sends (for the log).
cmp <(curl -s "$ours_artifact") "$artifact_file" >&2
cmp <(curl -s "$nginx_artifact") "$artifact_file" >&2
for url in "$ours_artifact" "$nginx_artifact"; do echo "== $url" >&2; curl -s -o /dev/null -D - "$url" >&2; done

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
errors = re.search(r'Non-2xx or 3xx responses: (\d+)', text)
if errors: sys.exit('http.sh: %s non-2xx responses from $url' % errors.group(1))
print(f'{rps:.0f} {($after - $before) * $tick_us / max(requests, 1):.1f}')"
}
median() {  # column → the median of that column of "rps cpu" lines on stdin
    awk -v c="$1" '{ print $c }' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
row() {  # name ours_url ours_pid nginx_url goal ours_config
    local ours_runs="" nginx_runs=""
    for _ in $(seq 1 "$rounds"); do
        ours_runs+="$(measure "$2" "$3")"$'\n'
        nginx_runs+="$(measure "$4" $(nginx_pids))"$'\n'
    done
    echo "$1 rounds (rps cpu-us) ours: $(echo $ours_runs | tr '\n' ' ') nginx: $(echo $nginx_runs | tr '\n' ' ')" >&2
    local ours_rps ours_cpu nginx_rps nginx_cpu
    ours_rps="$(printf '%s' "$ours_runs" | median 1)"
    ours_cpu="$(printf '%s' "$ours_runs" | median 2)"
    nginx_rps="$(printf '%s' "$nginx_runs" | median 1)"
    nginx_cpu="$(printf '%s' "$nginx_runs" | median 2)"
    echo "BENCH|$1|$ours_rps req/s ($6)|nginx $nginx_rps req/s ($threads workers, sendfile)|$(python3 -c "print(f'{$ours_rps/$nginx_rps:.2f}')")x|$5"
    echo "BENCH|$1: server CPU per request|$ours_cpu us|nginx $nginx_cpu us|$(python3 -c "print(f'{$ours_cpu/max($nginx_cpu, 0.01):.2f}')")x|informational (lower is better)"
}

row "HTTP artifact GET /artifacts/{sha256}.png ($bytes B, keep-alive, $connections conns, median of $rounds)" \
    "$ours_artifact" "$service_pid" "$nginx_artifact" ">= 1.0x" "failscope service, $threads poll threads"
row "HTTP tiny GET (21 B, keep-alive, $connections conns, median of $rounds)" \
    "http://127.0.0.1:$transport_port/tiny" "$transport_pid" "http://127.0.0.1:$nginx_port/files/tiny" \
    "informational" "HTTPServer route, $threads poll threads"
cat "$work/wrk.log" >&2
