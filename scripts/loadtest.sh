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
# request in a loop, never waiting for Retry-After: ROUNDS (3) rounds of /healthz/ and the
# analysis alone, then both under that load, DURATION seconds each, with the EV clients'
# answered (200) and refused (429) requests counted.
# WORKLOAD=fair (issue 26) measures how two EV clients share the slot for DURATION seconds
# while wrk keeps the cheap analysis busy (so EV work, at nice 19, takes long): A loops on the
# costliest EV request, waiting Retry-After when refused; B sends one every 3 s, once without
# retrying (B_RETRY=0, default) and once retrying after each Retry-After until served (B_RETRY=1).
# WORKLOAD=review (issue 37) runs a review worker beside the server (manage.py db_worker, the site's
# REVIEW_* settings, REVIEW_JOBS = the cores) and queues the reviews of REVIEW_HANDS (2) hands played
# to their end; once one is running, EV_CLIENTS (2) people, each from its own address, ask in turn for
# table advice (POST /api/v1/advice/, the request of the issue) and for the analyzer's EV figures
# (GET /api/v1/analyze/?depth=ev) for DURATION seconds, reading each answer for EV_THINK (5) seconds
# (waiting Retry-After when refused); then the same with no review running, once the reviews are done.
# It prints each phase's answers by status (refusals by reason) and their latency (p50, p90, max), and
# when each review was done. Needs no wrk.
# Usage: [WORKLOAD=mixed] [ROUNDS=3] scripts/loadtest.sh [DURATION=15] [CONNECTIONS=16]
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-15}
CONNECTIONS=${2:-16}
[ "${WORKLOAD:-mixed}" = review ] || command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
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
if [ "${WORKLOAD:-mixed}" = ev ] || [ "${WORKLOAD:-mixed}" = fair ] || [ "${WORKLOAD:-mixed}" = review ]; then
  # the EV clients' addresses come from X-Forwarded-For (loopback is the trusted proxy); the
  # slot files are this run's own
  export TRUSTED_PROXY_HOPS=1 EV_SLOT_DIR=$WORK/ev-slots
fi
scripts/serve-prod.sh >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 600); do curl -fs "http://127.0.0.1:$PORT/healthz/" >/dev/null 2>&1 && break; sleep 0.5; done
curl -fs "http://127.0.0.1:$PORT/healthz/" >/dev/null || { echo "server did not start:" >&2; cat "$WORK/server.log" >&2; exit 1; }
if [ "${WORKLOAD:-mixed}" = review ]; then
  export DJANGO_SETTINGS_MODULE=kwx_site.settings
  .venv/bin/python - "${REVIEW_HANDS:-2}" <<'PY'
import sys, django
django.setup()
from accounts.models import Player
from kwx.bots.registry import policy_factory
from kwx.table.view import view_for
from play import forms, seats, services
person = policy_factory("strong")()
for _ in range(int(sys.argv[1])):  # hands played to their end: each queues its review
    player = Player.objects.create()
    game = services.start_game(player=player, level="strong", rules="standard", base=1, piao=0)
    hand = game.hands.get()
    while not hand.over:
        view = view_for(seats.replayed(hand.record).final, 0)
        action = person.claim(view) if view.decision.may_pass else person.act(view)
        move = "pass" if action is None else f"{action.verb} {action.tile}" + (" ld" if action.liang_dao else "")
        hand, _, _ = services.act(player=player, game_id=game.pk, seen=hand.action_count, choice=forms.parse_choice(move), hand_id=hand.pk)
PY
  # in the server's own session, so in its scheduling group (Linux autogroups): the worst case for the
  # server, whose nice values then weigh against the worker's (a worker in its own group gets its share
  # of the CPU whatever they are; docs/deploy.md, TASK_NICE)
  .venv/bin/python manage.py db_worker --no-reload --no-startup-delay --verbosity 0 >"$WORK/worker.log" 2>&1 &
  WORKER=$!
  trap 'kill -TERM $WORKER 2>/dev/null; kill $SERVER 2>/dev/null; wait $SERVER $WORKER 2>/dev/null; rm -rf "$WORK"' EXIT
  .venv/bin/python - "$PORT" "$DURATION" "${EV_CLIENTS:-2}" "$EV_PATH" "${EV_THINK:-5}" <<'PY'
import json, statistics, sys, threading, time, urllib.error, urllib.request, django
django.setup()
from play.models import Hand
port, duration, clients, ev_path, think = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
REASONS = {"Expected values are being computed": "busy", "Too many expected-value requests from you": "client",
           "Too many expected-value requests on the site": "site", "The server is too busy": "late", "This request's computing": "time"}
ADVICE = json.dumps({"hand": "13579p13579sZFBZ", "opponents": [{"river": "2p"}, {}], "wall_left": 43}).encode()
def running():
    return Hand.objects.filter(review_state=Hand.RUNNING).exists()
def ask(address, advice):
    url = f"http://127.0.0.1:{port}" + ("/api/v1/advice/" if advice else ev_path)
    request = urllib.request.Request(url, data=ADVICE if advice else None, headers={"X-Forwarded-For": address, "Content-Type": "application/json", "Accept-Language": "en"})
    start = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            answer.read()
            status, wait, shape = answer.status, 0, ""
    except urllib.error.HTTPError as refused:
        body = refused.read()
        status, wait = refused.code, int(refused.headers.get("Retry-After", "1"))
        try:
            message = json.loads(body)["error"]["message"]
            shape = next((r for p, r in REASONS.items() if message.startswith(p)), "other")
        except (ValueError, KeyError, TypeError):
            shape = None  # not the API's error shape
    except OSError:
        status, wait, shape = 0, 1, None
    return status, time.monotonic() - start, wait, shape
def phase(name):
    rows, lock = [], threading.Lock()
    end = time.monotonic() + duration
    def person(n):
        advice = n % 2 == 0
        while time.monotonic() < end:
            review = running()
            status, seconds, wait, shape = ask(f"198.51.100.{n + 1}", advice)
            with lock:
                rows.append((status, seconds, review, shape, advice))
                note_finished()
            advice = not advice
            time.sleep(wait or think)
    threads = [threading.Thread(target=person, args=(n,)) for n in range(clients)]
    for t in threads: t.start()
    for t in threads: t.join()
    counts = {}
    for status, _, _, shape, _ in rows:
        key = f"{status} {shape}" if shape else str(status or "no answer")
        counts[key] = counts.get(key, 0) + 1
    times = sorted(r[1] for r in rows)
    def pct(q): return times[min(len(times) - 1, int(q * len(times)))]
    beside = sum(1 for r in rows if r[2])
    print(f"{name}: {len(rows)} requests ({sum(1 for r in rows if r[4])} advice, {sum(1 for r in rows if not r[4])} analyze ev), {beside} sent while a review ran; "
          "by status: " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    print(f"  latency of every answer: p50 {pct(0.5):.2f} s, p90 {pct(0.9):.2f} s, max {times[-1]:.2f} s; "
          f"answered 200: p50 {statistics.median([r[1] for r in rows if r[0] == 200] or [0]):.2f} s, max {max([r[1] for r in rows if r[0] == 200] or [0]):.2f} s; "
          f"not the API's JSON error shape: {sum(1 for r in rows if r[0] != 200 and r[3] is None)}")
began = time.monotonic()  # the worker has just started
finished = {}
def note_finished():
    for pk in Hand.objects.filter(review_state__in=(Hand.DONE, Hand.FAILED)).values_list("pk", flat=True):
        finished.setdefault(pk, time.monotonic() - began)
waited = time.monotonic()
while not running():
    if time.monotonic() - waited > 300:
        sys.exit("no review started within 5 minutes")
    time.sleep(0.2)
phase("EV beside a running review")
waited = time.monotonic()
while Hand.objects.filter(review_state__in=(Hand.QUEUED, Hand.RUNNING)).exists() and time.monotonic() - waited < 1800:
    note_finished()
    time.sleep(1)
note_finished()
for hand in Hand.objects.filter(over=True).order_by("pk"):
    print(f"review of hand {hand.pk}: {hand.review_state}, {hand.review_done} of {hand.review_total} decisions, "
          f"finished {finished.get(hand.pk, float('nan')):.0f} s after the worker started")
phase("EV alone (no review running)")
PY
  grep -c "WORKER TIMEOUT" "$WORK/server.log" | sed 's/^/gunicorn worker timeouts: /'
  echo "server: gunicorn, ${WEB_CONCURRENCY:-$(( $(nproc) * 2 ))} workers on $(nproc) cores; one review worker (REVIEW_JOBS ${REVIEW_JOBS:-$(nproc)}), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi
if [ "${WORKLOAD:-mixed}" = fair ]; then
  wrk -t2 -c"$CONNECTIONS" -d"$(( 2 * DURATION + 10 ))s" "http://127.0.0.1:$PORT/api/v1/analyze/?hand=4556p123789sZZZ" >/dev/null &
  LOAD=$!
  for retry in 0 1; do
    B_RETRY=$retry .venv/bin/python - "$PORT" "$DURATION" "$EV_PATH" <<'PY'
import os, statistics, sys, threading, time, urllib.error, urllib.request
port, duration, path = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
retry = os.environ["B_RETRY"] == "1"
end = time.time() + duration
counts = {"A": [0, 0], "B": [0, 0]}
waits = []
def get(who):
    address = {"A": "198.51.100.1", "B": "198.51.100.2"}[who]
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"X-Forwarded-For": address})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()
        counts[who][0] += 1
        return 0
    except urllib.error.HTTPError as refused:
        counts[who][1] += 1
        return int(refused.headers.get("Retry-After", "1"))
    except OSError:  # a timeout: counted as refused, tried again in a second
        counts[who][1] += 1
        return 1
def a():
    while time.time() < end:
        wait = get("A")
        if wait:
            time.sleep(wait)
def b():
    while time.time() < end:
        start = time.time()
        wait = get("B")
        while wait and retry and time.time() < end:
            time.sleep(wait)
            wait = get("B")
        if not wait:
            waits.append(time.time() - start)
        time.sleep(3)
threads = [threading.Thread(target=a), threading.Thread(target=b)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(f"B {'retrying after Retry-After' if retry else 'one request every 3 s'}, {duration:.0f} s:")
for who, (ok, refused) in counts.items():
    print(f"  client {who}: {ok} served, {refused} refused of {ok + refused} requests")
if waits:
    print(f"  client B, first request to answer: median {statistics.median(waits):.1f} s, max {max(waits):.1f} s ({len(waits)} served)")
PY
  done
  kill $LOAD 2>/dev/null || true
  echo "server: gunicorn, ${WEB_CONCURRENCY:-$(( $(nproc) * 2 ))} workers on $(nproc) cores; the cheap analysis under wrk -t2 -c$CONNECTIONS meanwhile"
  exit 0
fi
SLICES=1
[ "${WORKLOAD:=mixed}" = ev ] && SLICES=$(( 2 * ${ROUNDS:=3} ))
.venv/bin/python - "$WORK/hands.lua" "$WORKLOAD" "$(( DURATION * SLICES ))" <<'PY'
import random, sys
from bench.engine import random_hand, ready_hand
from kwx.hand.deal import practice_hand
from kwx.hand.notation import format_counts
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
        # the optional script argument is where to start (a later slice of a run takes new hands)
        f.write("local i = 0\ninit = function(args) i = tonumber(args[1] or 0) end\n"
                "request = function()\n  i = i % #hands + 1\n"
                f"  return wrk.format('GET', '{path}' .. hands[i])\nend\n")
PY
run() {  # url [script [start]] -> "rps p50 p99"
  local out
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency ${2:+-s "$2"} "$1" ${3:+-- "$3"})
  local rps p50 p99
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1=="50%" {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}')
  if echo "$out" | grep -q "Non-2xx\|Socket errors"; then echo "errors during the run:" >&2; echo "$out" >&2; exit 1; fi
  echo "$rps $p50 $p99"
}
wrk -t1 -c4 -d3s "http://127.0.0.1:$PORT/healthz/" >/dev/null  # warm the workers
if [ "$WORKLOAD" != ev ]; then
  read -r base_rps base_p50 base_p99 < <(run "http://127.0.0.1:$PORT" "$WORK/trivial.lua")
  read -r api_rps api_p50 api_p99 < <(run "http://127.0.0.1:$PORT" "$WORK/hands.lua")
  printf '%-24s %10s %8s %8s\n' endpoint "req/s" p50 p99
  printf '%-24s %10s %8s %8s\n' /healthz/ "$base_rps" "$base_p50" "$base_p99"
  printf '%-24s %10s %8s %8s\n' /api/v1/analyze/ "$api_rps" "$api_p50" "$api_p99"
  .venv/bin/python -c "print(f'analyze / trivial: {float(\"$api_rps\") / float(\"$base_rps\") * 100:.0f}%')"
  echo "workload: $WORKLOAD ($(( 4000 * DURATION )) different hands, fixed seed: none asked for twice)"
  echo "server: gunicorn, ${WEB_CONCURRENCY:-$(( $(nproc) * 2 ))} workers on $(nproc) cores; wrk -t2 -c$CONNECTIONS -d${DURATION}s on the same machine"
  exit 0
fi
# WORKLOAD=ev: ROUNDS rounds of four DURATION-second slices, interleaved so that load from
# elsewhere on the machine falls on all four alike: /healthz/ and the analysis alone, then both
# while the EV clients run.
cat >"$WORK/ev.lua" <<LUA
local n = 0
setup = function(thread) n = n + 1; thread:set("client", "198.51.100." .. n) end
request = function() return wrk.format("GET", "$EV_PATH", {["X-Forwarded-For"] = client}) end
LUA
: >"$WORK/rounds"
for round in $(seq 1 "$ROUNDS"); do
  read -r base_rps _ _ < <(run "http://127.0.0.1:$PORT" "$WORK/trivial.lua")
  read -r quiet_rps _ _ < <(run "http://127.0.0.1:$PORT" "$WORK/hands.lua" $(( (2 * round - 2) * 4000 * DURATION )))
  # one connection per thread, so each client address is one connection sending in a loop
  wrk -t"$EV_CLIENTS" -c"$EV_CLIENTS" -d"$(( 2 * DURATION + 3 ))s" --timeout 10s -s "$WORK/ev.lua" \
    "http://127.0.0.1:$PORT" >"$WORK/ev.out" &
  EV_LOAD=$!
  sleep 2
  read -r load_rps _ _ < <(run "http://127.0.0.1:$PORT" "$WORK/trivial.lua")
  read -r api_rps api_p50 api_p99 < <(run "http://127.0.0.1:$PORT" "$WORK/hands.lua" $(( (2 * round - 1) * 4000 * DURATION )))
  wait $EV_LOAD
  total=$(awk '/requests in/ {print $1}' "$WORK/ev.out")
  refused=$(awk '/Non-2xx or 3xx responses/ {print $5}' "$WORK/ev.out")
  echo "$round $base_rps $quiet_rps $load_rps $api_rps $api_p50 $api_p99 $total ${refused:-0} $(( 2 * DURATION + 3 ))" >>"$WORK/rounds"
done
.venv/bin/python - "$WORK/rounds" "$EV_CLIENTS" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
print(f"{'round':<6}{'healthz':>9}{'analyze':>9}{'healthz+EV':>12}{'analyze+EV':>12}{'p50':>9}{'p99':>9}"
      f"{'EV 200/s':>10}{'EV 429/s':>10}  analyze+EV / healthz")
ratios = []
for r, base, quiet, load, api, p50, p99, total, refused, seconds in rows:
    base, quiet, load, api = map(float, (base, quiet, load, api))
    answered = (int(total) - int(refused)) / float(seconds)
    ratios.append(api / base)
    print(f"{r:<6}{base:>9.0f}{quiet:>9.0f}{load:>12.0f}{api:>12.0f}{p50:>9}{p99:>9}{answered:>10.1f}"
          f"{int(refused) / float(seconds):>10.0f}  {api / base * 100:.0f}% (alone {quiet / base * 100:.0f}%)")
print(f"cheap analysis under the EV load / trivial endpoint alone: median {statistics.median(ratios) * 100:.0f}% "
      f"over {len(ratios)} rounds ({min(ratios) * 100:.0f}–{max(ratios) * 100:.0f}%)")
print(f"EV clients: {sys.argv[2]}, each its own address, the costliest EV request in a loop, never waiting")
PY
echo "workload: ev (mixed hands, $(( 4000 * DURATION )) new ones per slice, fixed seed); $ROUNDS rounds of 4 × ${DURATION}s"
echo "server: gunicorn, ${WEB_CONCURRENCY:-$(( $(nproc) * 2 ))} workers on $(nproc) cores; wrk -t2 -c$CONNECTIONS on the same machine"
