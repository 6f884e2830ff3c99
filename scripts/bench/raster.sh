#!/usr/bin/env bash
# Render + PNG encode of a catalog screen on iPhone 15 Pro Max (1290×2796), ours versus Pillow
# encoding the same raw RGB pixels with compress_level=6. Release build, medians over RUNS runs.
# Prints `BENCH|measure|ours|reference|ratio|goal` rows on stdout; everything else on stderr.
# Needs python3 with Pillow (pip install pillow).
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-15}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product raster-bench >&2
bin=$(swift build -c release --show-bin-path)/raster-bench
"$bin" --runs "$RUNS" --device "iPhone 15 Pro Max" --rgb-out "$work/screen.rgb" --png-out "$work/ours.png" >"$work/ours.txt"
cat "$work/ours.txt" >&2
value() { grep "^$1=" "$work/ours.txt" | cut -d= -f2; }
width=$(value width)
height=$(value height)
ours_ms=$(value total_ms)
ours_bytes=$(value png_bytes)

python3 - "$work/screen.rgb" "$width" "$height" "$RUNS" "$work/pillow.png" >"$work/pillow.txt" <<'PY'
import io, statistics, sys, time
from PIL import Image
path, width, height, runs, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
image = Image.frombytes("RGB", (width, height), open(path, "rb").read())
times = []
for _ in range(runs):
    buffer = io.BytesIO()
    start = time.perf_counter()
    image.save(buffer, "PNG", compress_level=6)
    times.append((time.perf_counter() - start) * 1000)
open(out, "wb").write(buffer.getvalue())
print("total_ms=%.2f" % statistics.median(times))
print("png_bytes=%d" % len(buffer.getvalue()))
PY
cat "$work/pillow.txt" >&2
pillow_ms=$(grep '^total_ms=' "$work/pillow.txt" | cut -d= -f2)
pillow_bytes=$(grep '^png_bytes=' "$work/pillow.txt" | cut -d= -f2)

# Both files must decode to the same pixels.
python3 - "$work/ours.png" "$work/pillow.png" >&2 <<'PY'
import sys
from PIL import Image
a, b = (Image.open(p).convert("RGB").tobytes() for p in sys.argv[1:3])
sys.exit(0 if a == b else "raster bench: our PNG and Pillow's decode to different pixels")
PY
if command -v pngcheck >/dev/null; then pngcheck -q "$work/ours.png" >&2; fi

ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }
echo "BENCH|raster render+encode vs Pillow encode, 15 Pro Max catalog (ms)|$ours_ms|Pillow 6: $pillow_ms|$(ratio "$ours_ms" "$pillow_ms")|<= 1.0"
echo "BENCH|raster PNG size vs Pillow compress_level=6 (bytes)|$ours_bytes|Pillow 6: $pillow_bytes|$(ratio "$ours_bytes" "$pillow_bytes")|<= 1.0"
