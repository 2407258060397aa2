#!/usr/bin/env bash
# Load test on loopback: the production server (scripts/serve-prod.sh) against wrk.
# Measures a trivial endpoint (/healthz/) and /api/v1/analyze/ over many different hands
# (fixed-seed hands, more than a run sends, so no answer comes from a cache of itself), each
# for DURATION seconds, and prints requests/s, p50, p99 and the ratio.
# WORKLOAD picks the hands: mixed (default: half 14-tile random deals, half 13-tile ready
# hands), deals (14-tile random deals only, the most expensive analyses), ready (13-tile ready
# hands), practice (the analyzer's own random hands: 13 and 14 tiles, at most 2 from ready).
# WORKLOAD=ev measures the mixed hands while EV_CLIENTS (4) clients, each from its own address
# (X-Forwarded-For, the server trusting one proxy hop), send the costliest expected-value
# request in a loop, never waiting for Retry-After; /healthz/ is measured before (the baseline)
# and again under that load, and the EV clients' answered (200) and refused (429) requests
# are counted.
# Usage: [WORKLOAD=mixed] scripts/loadtest.sh [DURATION=15] [CONNECTIONS=16]
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-15}
CONNECTIONS=${2:-16}
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
# a free port below the ephemeral range, so wrk's own connections never hold it
PORT=$(.venv/bin/python -c '
import random, socket
for port in random.sample(range(20000, 32000), 200):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
        print(port)
        break')
WORK=$(mktemp -d /tmp/kwx-load.XXXXXX)
export DATABASE_URL=${DATABASE_URL:-sqlite:///$WORK/load.sqlite3} ACCESS_LOG=/dev/null BIND=127.0.0.1:$PORT
EV_CLIENTS=${EV_CLIENTS:-4}
EV_PATH="/api/v1/analyze/?hand=13579p13579sZFB1p&depth=ev&draws_left=30&liang_dao_when_ready=true"
if [ "${WORKLOAD:-mixed}" = ev ]; then
  # the EV clients' addresses come from X-Forwarded-For (loopback is the trusted proxy); the
  # slot files are this run's own
  export TRUSTED_PROXY_HOPS=1 EV_SLOT_DIR=$WORK/ev-slots
fi
scripts/serve-prod.sh >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 600); do curl -fs "http://127.0.0.1:$PORT/healthz/" >/dev/null 2>&1 && break; sleep 0.5; done
curl -fs "http://127.0.0.1:$PORT/healthz/" >/dev/null || { echo "server did not start:" >&2; cat "$WORK/server.log" >&2; exit 1; }
.venv/bin/python - "$WORK/hands.lua" "${WORKLOAD:=mixed}" "$DURATION" <<'PY'
import random, sys
from analysis.bench import random_hand, ready_hand
from analysis.engine.deal import practice_hand
from analysis.engine.notation import format_counts
rng = random.Random(7)
make = {
    "mixed": lambda i: ready_hand(rng) if i % 2 else random_hand(rng, 14),
    "ev": lambda i: ready_hand(rng) if i % 2 else random_hand(rng, 14),
    "deals": lambda i: random_hand(rng, 14),
    "ready": lambda i: ready_hand(rng),
    "practice": lambda i: practice_hand(rng, 13 + i % 2),
}[sys.argv[2]]
# more hands than a run sends (under 4,000 a second here), so no hand is asked for twice and
# no whole-hand cache of the engine ever answers
hands = [format_counts(make(i)) for i in range(4000 * int(sys.argv[3]))]
# Both endpoints get the same request script (rotating query strings), so wrk spends the
# same effort per request on each and only the server's work differs.
for name, path in (("hands.lua", "/api/v1/analyze/?hand="), ("trivial.lua", "/healthz/?n=")):
    with open(sys.argv[1].replace("hands.lua", name), "w") as f:
        f.write("local hands = {" + ",".join(f'"{h}"' for h in hands) + "}\n")
        f.write("local i = 0\nrequest = function()\n  i = i % #hands + 1\n"
                f"  return wrk.format('GET', '{path}' .. hands[i])\nend\n")
PY
run() {  # url [script] -> "rps p50 p99"
  local out
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency ${2:+-s "$2"} "$1")
  local rps p50 p99
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1=="50%" {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}')
  if echo "$out" | grep -q "Non-2xx\|Socket errors"; then echo "errors during the run:" >&2; echo "$out" >&2; exit 1; fi
  echo "$rps $p50 $p99"
}
wrk -t1 -c4 -d3s "http://127.0.0.1:$PORT/healthz/" >/dev/null  # warm the workers
read -r base_rps base_p50 base_p99 < <(run "http://127.0.0.1:$PORT" "$WORK/trivial.lua")
if [ "$WORKLOAD" = ev ]; then
  cat >"$WORK/ev.lua" <<LUA
local n = 0
setup = function(thread) n = n + 1; thread:set("client", "198.51.100." .. n) end
request = function() return wrk.format("GET", "$EV_PATH", {["X-Forwarded-For"] = client}) end
LUA
  # one connection per thread, so each client address is one connection sending in a loop
  wrk -t"$EV_CLIENTS" -c"$EV_CLIENTS" -d"$(( 2 * DURATION + 6 ))s" -s "$WORK/ev.lua" "http://127.0.0.1:$PORT" >"$WORK/ev.out" &
  EV_LOAD=$!
  sleep 3
  read -r load_rps load_p50 load_p99 < <(run "http://127.0.0.1:$PORT" "$WORK/trivial.lua")
fi
read -r api_rps api_p50 api_p99 < <(run "http://127.0.0.1:$PORT" "$WORK/hands.lua")
printf '%-24s %10s %8s %8s\n' endpoint "req/s" p50 p99
printf '%-24s %10s %8s %8s\n' /healthz/ "$base_rps" "$base_p50" "$base_p99"
if [ "$WORKLOAD" = ev ]; then
  printf '%-24s %10s %8s %8s\n' "/healthz/ under EV load" "$load_rps" "$load_p50" "$load_p99"
  printf '%-24s %10s %8s %8s\n' "/api/v1/analyze/ (EV)" "$api_rps" "$api_p50" "$api_p99"
else
  printf '%-24s %10s %8s %8s\n' /api/v1/analyze/ "$api_rps" "$api_p50" "$api_p99"
fi
.venv/bin/python -c "print(f'analyze / trivial: {float(\"$api_rps\") / float(\"$base_rps\") * 100:.0f}%')"
if [ "$WORKLOAD" = ev ]; then
  wait $EV_LOAD
  .venv/bin/python - "$WORK/ev.out" "$(( 2 * DURATION + 6 ))" "$load_rps" "$api_rps" "$base_rps" "$EV_CLIENTS" <<'PY'
import re, sys
out = open(sys.argv[1]).read()
seconds, load, api, base, clients = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
total = int(re.search(r"(\d+) requests in", out).group(1))
refused = int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0
errors = re.search(r"Socket errors:.*", out)
print(f"analyze / trivial under the same EV load: {api / load * 100:.0f}%; /healthz/ under EV load: {load / base * 100:.0f}% of its baseline")
print(f"EV clients ({clients}, the costliest request in a loop, {seconds:.0f} s): {(total - refused) / seconds:.1f} answered/s, "
      f"{refused / seconds:.0f} refused (429)/s" + (f"; {errors.group(0)}" if errors else ""))
PY
fi
echo "workload: $WORKLOAD ($(( 4000 * DURATION )) different hands, fixed seed: none asked for twice)"
echo "server: gunicorn, ${WEB_CONCURRENCY:-$(( $(nproc) * 2 ))} workers on $(nproc) cores; wrk -t2 -c$CONNECTIONS -d${DURATION}s on the same machine"
