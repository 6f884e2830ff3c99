#!/usr/bin/env bash
# Object storage benchmarks (release build) against a throwaway SeaweedFS S3 gateway (scripts/with-s3.sh),
# rows `BENCH|measure|ours|reference|ratio|goal` on stdout.
#
# 1. Artifact PUT then GET of 150 KB screenshots (N distinct PNGs, one curl process a phase, one connection) through
#    `failscope serve --artifacts s3://…` versus curl doing the same PUTs and GETs directly against the bucket
#    (curl --aws-sigv4), in the same run: ms per request and the ratios for PUT and GET. The service's GET right
#    after the PUT is served from its local cache (hot); a GET after a restart (empty cache) is reported too.
# 2. `failscope gc` of 10,000 unreferenced objects in the bucket: seconds and objects/s, against curl deleting the
#    same 10,000 objects directly (16 in parallel, like gc) after they are put back.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${FAILSCOPE_TEST_S3_URL:-}" ]; then exec scripts/with-s3.sh bash "$0" "$@"; fi
N=${BENCH_S3_SCREENSHOTS:-200}
GC_OBJECTS=${BENCH_S3_GC_OBJECTS:-10000}
swift build -c release --product failscope >&2
BIN=$(swift build -c release --show-bin-path)
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
# The test bucket and prefix as a path-style URL: objects go under it like the service's.
BUCKET_URL="$AWS_ENDPOINT_URL/${FAILSCOPE_TEST_S3_URL#s3://}"
# Signing options go into every request of a config file ("next" resets options).
SIGN=$(printf 'aws-sigv4 = "aws:amz:%s:s3"\nuser = "%s:%s"' "$AWS_REGION" "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY")

# N distinct PNGs of 150 KB (stored deflate blocks of noise: the size of a real screenshot on the wire).
python3 - "$WORK/png" "$N" <<'PY'
import hashlib, os, random, struct, sys, zlib
folder, count = sys.argv[1], int(sys.argv[2])
os.makedirs(folder)
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
width, height = 250, 200
for index in range(count):
    rows = random.Random(index).randbytes(height * width * 3)
    raw = b"".join(b"\0" + rows[y * width * 3:(y + 1) * width * 3] for y in range(height))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw, 0)) + chunk(b"IEND", b""))
    open(os.path.join(folder, hashlib.sha256(png).hexdigest()), "wb").write(png)
PY
echo "screenshots: $N of $(stat -c %s "$(ls -d "$WORK"/png/* | head -1)") bytes" >&2

# timed CONFIG: runs curl on a config file (one process, one kept-alive connection), prints seconds.
timed() {
    local start end
    start=$(date +%s.%N)
    curl -sf --no-progress-meter -K "$1"
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}
# config PHASE BASE PREFIX: a curl config of N requests (put or get) against BASE.
config() {
    local phase=$1 base=$2 file="$WORK/$1-$RANDOM.curl" sha
    : >"$file"
    for path in "$WORK"/png/*; do
        sha=$(basename "$path")
        if [ "$phase" = put ]; then
            printf 'next\nurl = "%s"\noutput = "/dev/null"\nupload-file = "%s"\n%s\n' "$(eval echo "$base")" "$path" \
                "${PUT_EXTRA:-}" >>"$file"
        else
            printf 'next\nurl = "%s"\noutput = "/dev/null"\n%s\n' "$(eval echo "$base")" "${GET_EXTRA:-}" >>"$file"
        fi
    done
    sed -i '1d' "$file"  # no "next" before the first request
    echo "$file"
}

# Direct: curl against the bucket (the reference), PUT then GET, object keys like the service's.
PUT_EXTRA=$'header = "Content-Type: image/png"\n'"$SIGN"
GET_EXTRA=$SIGN
DIRECT_PUT=$(timed "$(config put '$BUCKET_URL/bench-direct/${sha:0:2}/$sha')")
DIRECT_GET=$(timed "$(config get '$BUCKET_URL/bench-direct/${sha:0:2}/$sha')")
GET_EXTRA=""

start_server() {
    "$BIN/failscope" serve --port 0 --data "$WORK/data" --artifacts "s3://${FAILSCOPE_TEST_S3_URL#s3://}/bench-service" \
        --upload-token bench --threads 4 2>"$WORK/serve.log" &
    SERVER_PID=$!
    PORT=""
    for _ in $(seq 1 200); do
        PORT=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$WORK/serve.log" | head -1)
        [ -n "$PORT" ] && curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && return 0
        timeout 0.05 tail -f "$WORK/serve.log" >/dev/null 2>&1 || true
    done
    echo "server did not start" >&2; cat "$WORK/serve.log" >&2; exit 1
}
stop_server() { kill "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""; }
start_server
PUT_EXTRA=$'header = "Content-Type: image/png"\nheader = "Authorization: Bearer bench"\nrequest = "PUT"'
SERVICE_PUT=$(timed "$(config put 'http://127.0.0.1:$PORT/api/v1/artifacts/$sha')")
SERVICE_GET=$(timed "$(config get 'http://127.0.0.1:$PORT/artifacts/$sha.png')")
stop_server
start_server  # an empty local cache: every GET goes to the bucket
SERVICE_COLD=$(timed "$(config get 'http://127.0.0.1:$PORT/artifacts/$sha.png')")
stop_server
echo "seconds for $N: direct PUT $DIRECT_PUT GET $DIRECT_GET; service PUT $SERVICE_PUT GET $SERVICE_GET cold GET $SERVICE_COLD" >&2
ms() { awk -v s="$1" -v n="$N" 'BEGIN { printf "%.2f", s * 1000 / n }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "BENCH|artifact PUT 150 KB via service (S3 backend): ms|$(ms "$SERVICE_PUT")|curl PUT to bucket $(ms "$DIRECT_PUT") ms|$(ratio "$SERVICE_PUT" "$DIRECT_PUT")|report"
echo "BENCH|artifact GET 150 KB via service after PUT (cached): ms|$(ms "$SERVICE_GET")|curl GET from bucket $(ms "$DIRECT_GET") ms|$(ratio "$SERVICE_GET" "$DIRECT_GET")|report"
echo "BENCH|artifact GET 150 KB via service, empty cache: ms|$(ms "$SERVICE_COLD")|curl GET from bucket $(ms "$DIRECT_GET") ms|$(ratio "$SERVICE_COLD" "$DIRECT_GET")|report"

# 2. gc of unreferenced objects: GC_OBJECTS small element trees put straight into the bucket (16 parallel curls),
# then `failscope gc` over an empty database (none is referenced) with no grace period.
mkdir -p "$WORK/trees"
python3 - "$WORK/trees" "$GC_OBJECTS" <<'PY'
import hashlib, os, sys
folder, count = sys.argv[1], int(sys.argv[2])
for index in range(count):
    body = ('{"element":%d}' % index).encode()
    open(os.path.join(folder, hashlib.sha256(body).hexdigest()), "wb").write(body)
PY
: >"$WORK/seed.curl"
for path in "$WORK"/trees/*; do
    sha=$(basename "$path")
    printf 'next\nurl = "%s/bench-gc/%s/%s"\noutput = "/dev/null"\nupload-file = "%s"\nheader = "Content-Type: application/json"\n%s\n' \
        "$BUCKET_URL" "${sha:0:2}" "$sha" "$path" "$SIGN" >>"$WORK/seed.curl"
done
sed -i '1d' "$WORK/seed.curl"
seed() { curl -sf --no-progress-meter --parallel --parallel-max 16 -K "$WORK/seed.curl"; }
seed
mkdir -p "$WORK/gc-data"
"$BIN/failscope" gc --keep-days 1 --grace-minutes 0 --data "$WORK/gc-data" \
    --artifacts "s3://${FAILSCOPE_TEST_S3_URL#s3://}/bench-gc" >"$WORK/gc.txt"
cat "$WORK/gc.txt" >&2
DELETED=$(sed -n 's/.* tests, \([0-9]*\) artifacts.*/\1/p' "$WORK/gc.txt")
SECONDS_GC=$(sed -n 's/.* in \([0-9.]*\) s\.$/\1/p' "$WORK/gc.txt")
[ "$DELETED" = "$GC_OBJECTS" ] || { echo "gc deleted $DELETED of $GC_OBJECTS objects" >&2; exit 1; }
RATE=$(awk -v n="$DELETED" -v s="$SECONDS_GC" 'BEGIN { printf "%.0f", n / s }')
# The reference: the same objects put back, then deleted by curl straight from a list (no listing, no database).
seed
sed -e '/^upload-file/d' -e '/^header = "Content-Type/d' -e 's/^output = .*/output = "\/dev\/null"\nrequest = "DELETE"/' \
    "$WORK/seed.curl" >"$WORK/delete.curl"
start=$(date +%s.%N)
curl -sf --no-progress-meter --parallel --parallel-max 16 -K "$WORK/delete.curl"
CURL_GC=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
LEFT=$("$BIN/failscope" gc --keep-days 1 --grace-minutes 0 --data "$WORK/gc-data" \
    --artifacts "s3://${FAILSCOPE_TEST_S3_URL#s3://}/bench-gc" | sed -n 's/.* tests, \([0-9]*\) artifacts.*/\1/p')
echo "curl deleted $GC_OBJECTS objects in $CURL_GC s ($LEFT left for gc after it)" >&2
echo "BENCH|gc of $GC_OBJECTS unreferenced objects: seconds ($DELETED deleted)|$SECONDS_GC|curl DELETE x16 $CURL_GC s|$(awk -v a="$SECONDS_GC" -v b="$CURL_GC" 'BEGIN { printf "%.2f", a / b }')|report"
echo "BENCH|gc of $GC_OBJECTS unreferenced objects: objects/s|$RATE|-|-|report"
