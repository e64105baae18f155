# shellcheck shell=bash
# shellcheck disable=SC2034  # globals set here are read by up.sh / down.sh
# Shared helpers for deploy/local/up.sh, down.sh and kafka-tool.sh.
# Source it after `set -euo pipefail`; it defines functions and a few globals
# and starts nothing by itself. See README.md next to it for the why.

SPINROOM_DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SPINROOM_REPO_DIR="$(cd "$SPINROOM_DEPLOY_DIR/../.." && pwd)"
# runuser, apt's helpers and the PostgreSQL tools' wrappers live in sbin, which
# a minimal PATH (a CI runner's, or `env -i`) leaves out.
case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH="$PATH:/usr/sbin:/sbin" ;; esac

# 4.4.0 is listed on Maven Central but is incompletely published there
# (kafka-tools-api:4.4.0, a runtime dependency of kafka_2.13:4.4.0, is
# missing), so 4.3.1 is the newest 4.x that resolves. Class files are Java 17.
KAFKA_VERSION="${SPINROOM_KAFKA_VERSION:-4.3.1}"
# Broker JVM flags besides the heap. C1-only JIT (TieredStopAtLevel=1) boots
# ~1 s faster on 2 cores; peak throughput does not matter for local work.
KAFKA_JVM_OPTS="${SPINROOM_KAFKA_JVM_OPTS:--XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:TieredStopAtLevel=1}"

# ---------------------------------------------------------------- output ---

# Say where an unexpected failure (set -e) happened instead of exiting mute.
set -E
trap 'printf "[local-infra] ERROR: unexpected failure (exit %s) at %s:%s: %s\n" "$?" "${BASH_SOURCE[0]##*/}" "$LINENO" "$BASH_COMMAND" >&2' ERR

log() { printf '[local-infra] %s\n' "$*" >&2; }
die() { printf '[local-infra] ERROR: %s\n' "$*" >&2; exit 1; }
now_ms() { date +%s%3N; }
# secs_since START_MS -> "1.23s"
secs_since() { local d=$(( $(now_ms) - $1 )); printf '%d.%02ds' $((d / 1000)) $(((d % 1000) / 10)); }

# show_tail NAME FILE: what a failing component said last.
show_tail() {
  if [[ -s $2 ]]; then
    printf -- '----- %s: last 40 lines of %s -----\n' "$1" "$2" >&2
    tail -n 40 "$2" >&2
    printf -- '----- end of %s log -----\n' "$1" >&2
  else
    printf -- '(%s: no log at %s)\n' "$1" "$2" >&2
  fi
}

# fail NAME LOGFILE MESSAGE: die with the component's log tail.
fail() { show_tail "$1" "$2"; die "$1: $3"; }

# ------------------------------------------------------------- profiles ---

# select_profile [dev|test]: sets PROFILE, ports and directories.
select_profile() {
  PROFILE="${1:-dev}"
  local pg redis kafka smtp inbox
  case "$PROFILE" in
    dev)  pg=15432 redis=16379 kafka=19092 smtp=11025 inbox=18025 ;;
    test) pg=25432 redis=26379 kafka=29092 smtp=21025 inbox=28025 ;;
    *) die "unknown profile '$PROFILE' (expected: dev or test)" ;;
  esac
  PG_PORT="${SPINROOM_PG_PORT:-$pg}"
  REDIS_PORT="${SPINROOM_REDIS_PORT:-$redis}"
  KAFKA_PORT="${SPINROOM_KAFKA_PORT:-$kafka}"
  SMTP_PORT="${SPINROOM_SMTP_PORT:-$smtp}"
  MAILPIT_PORT="${SPINROOM_MAILPIT_PORT:-$inbox}"
  local p
  for p in "$PG_PORT" "$REDIS_PORT" "$KAFKA_PORT" "$SMTP_PORT" "$MAILPIT_PORT"; do
    [[ $p =~ ^[0-9]+$ ]] && (( p > 0 && p < 65535 )) || die "bad port '$p'"
  done
  KAFKA_CONTROLLER_PORT=$((KAFKA_PORT + 1))

  LOCAL_DIR="$(realpath -m "${SPINROOM_LOCAL_DIR:-$SPINROOM_REPO_DIR/.local}")"
  PROFILE_DIR="$LOCAL_DIR/$PROFILE"
  REDIS_DIR="$PROFILE_DIR/redis"
  KAFKA_DIR="$PROFILE_DIR/kafka"
  MAILPIT_DIR="$PROFILE_DIR/mailpit"
  # Where PostgreSQL's data went (see pg_resolve_dir); down.sh reads it back.
  PG_LOCATION_FILE="$PROFILE_DIR/postgres.location"
  KAFKA_DIST_DIR="$LOCAL_DIR/kafka-dist/$KAFKA_VERSION"
  INFRA_ENV="$PROFILE_DIR/infra.env"
}

# Our own dirs only; 755 so the postgres user can pass through them.
make_local_dirs() {
  mkdir -p "$PROFILE_DIR" "$REDIS_DIR" "$KAFKA_DIR" "$MAILPIT_DIR" "$LOCAL_DIR/kafka-dist"
  chmod 755 "$LOCAL_DIR" "$PROFILE_DIR"
}

# lock_profile: one up.sh/down.sh at a time per profile (two racing starts
# would launch two brokers on one data dir). Held on fd 8 until exit; every
# daemon is started with 8>&- so that it does not inherit (and keep) it.
lock_profile() {
  exec 8>"$PROFILE_DIR/.lock"
  flock -w 600 8 || die "another up.sh/down.sh $PROFILE is still running"
}

# ---------------------------------------------------------- processes ---

# pid_alive PID: running and not a zombie. Here PID 1 reaps orphans only
# every few seconds, and kill -0 (which pg_ctl status also uses) says yes to
# a zombie: a crashed server would otherwise look alive.
pid_alive() {
  local st
  [[ $1 =~ ^[0-9]+$ ]] && kill -0 "$1" 2>/dev/null || return 1
  st="$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null)" || return 1
  [[ ${st%% *} != Z ]]
}

# pid_matches PID PATTERN: PID is alive and its command line contains PATTERN
# (so a stale pid file never makes us adopt or kill someone else's process).
pid_matches() {
  local pid=$1 pattern=$2 cmd
  pid_alive "$pid" || return 1
  cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
  [[ $cmd == *"$pattern"* ]]
}

read_pid() { if [[ -f $1 ]]; then tr -dc '0-9' <"$1"; fi; }

# port_open PORT: something accepts TCP connections on 127.0.0.1:PORT.
port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# stop_pid NAME PIDFILE PATTERN TIMEOUT_S: TERM, wait, then KILL.
# Sets STOP_KILLED=1 if it had to KILL.
stop_pid() {
  local name=$1 pidfile=$2 pattern=$3 timeout_s=$4 pid i
  STOP_KILLED=0
  pid="$(read_pid "$pidfile")"
  if ! pid_matches "$pid" "$pattern"; then
    rm -f "$pidfile"
    log "$name: not running"
    return 0
  fi
  local t0; t0=$(now_ms)
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < timeout_s * 10; i++)); do
    pid_matches "$pid" "$pattern" || break
    sleep 0.1
  done
  if pid_matches "$pid" "$pattern"; then
    log "$name: still running after ${timeout_s}s, sending KILL"
    kill -KILL "$pid" 2>/dev/null || true
    STOP_KILLED=1
    while pid_matches "$pid" "$pattern"; do sleep 0.1; done
  fi
  rm -f "$pidfile"
  log "$name: stopped (pid $pid, $(secs_since "$t0"))"
}

# ----------------------------------------------------------- installing ---

pg_bin_dir() {
  local d
  d="$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2>/dev/null | sort -V | tail -n 1)"
  [[ -n $d && -x $d/pg_ctl ]] && printf '%s\n' "$d"
}

java_major() {
  command -v java >/dev/null || { echo 0; return; }
  java -version 2>&1 | awk -F'"' '/version/ { split($2, v, "."); print (v[1] == 1 ? v[2] : v[1]); exit }'
}

kafka_dist_ok() {
  [[ -f $KAFKA_DIST_DIR/.complete ]] &&
    [[ "$(cat "$KAFKA_DIST_DIR/.complete")" == "$(kafka_pom_hash)" ]]
}
kafka_pom_hash() { sha1sum "$SPINROOM_DEPLOY_DIR/kafka/pom.xml" | cut -c1-40; }

# Debian packages this machine lacks (names for apt-get).
missing_packages() {
  local need=()
  { pg_bin_dir >/dev/null && id postgres >/dev/null 2>&1; } || need+=(postgresql)
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null || need+=(redis-server)
  command -v ffmpeg >/dev/null || need+=(ffmpeg)
  (( $(java_major) >= 17 )) || need+=(openjdk-17-jre-headless)
  # Maven is only needed to fetch the Kafka jars the first time.
  kafka_dist_ok || command -v mvn >/dev/null || need+=(maven)
  # The web client's browser tests drive Debian's Chromium (test profile only).
  [[ $PROFILE != test ]] || [[ -x /usr/bin/chromium ]] || need+=(chromium)
  # ... and its screenshots show the room's emoji (reactions, animations) as people see them.
  [[ $PROFILE != test ]] || [[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]] || need+=(fonts-noto-color-emoji)
  printf '%s\n' "${need[@]}"
}

# ensure_packages: apt-get update + install only when something is missing.
# A lock file serialises concurrent `up.sh dev` / `up.sh test` runs.
# (Locks are taken on fd 9 in this shell, not in a subshell, so that die()
# ends the script directly; fd 9 is closed again before any daemon starts.)
ensure_packages() {
  [[ -z "$(missing_packages)" ]] && return 0
  [[ $EUID -eq 0 ]] || die "need root to apt-get install: $(missing_packages | xargs)"
  exec 9>/var/lock/spinroom-local-apt.lock
  flock 9
  local need t0 aptlog="$LOCAL_DIR/apt.log"
  mapfile -t need < <(missing_packages)   # again: the other run may have done it
  if (( ${#need[@]} )); then
    t0=$(now_ms)
    log "installing with apt-get: ${need[*]} (log: $aptlog)"
    # No init system here: keep package scripts from starting the stock
    # services (a cluster on 5432, redis on 6379) unless a policy exists.
    local policy=/usr/sbin/policy-rc.d made_policy=0 rc=0
    if [[ ! -e $policy ]]; then
      printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made_policy=1
    fi
    { DEBIAN_FRONTEND=noninteractive apt-get update -q &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        -o DPkg::Lock::Timeout=300 "${need[@]}"; } >"$aptlog" 2>&1 || rc=$?
    (( made_policy )) && rm -f "$policy"
    (( rc == 0 )) || fail apt-get "$aptlog" "installing ${need[*]} failed (exit $rc)"
    [[ -z "$(missing_packages)" ]] || fail apt-get "$aptlog" "still missing after install: $(missing_packages | xargs)"
    log "installed ${need[*]} in $(secs_since "$t0")"
  fi
  exec 9>&-
}

# ensure_kafka_dist: Kafka jars from Maven Central into a cache shared by all
# profiles, keyed by version; re-fetched if pom.xml changes.
ensure_kafka_dist() {
  kafka_dist_ok && return 0
  mkdir -p "$LOCAL_DIR/kafka-dist"
  exec 9>"$LOCAL_DIR/kafka-dist/.lock"
  flock 9
  if ! kafka_dist_ok; then                 # the other profile may have done it
    local t0 tmp; t0=$(now_ms)
    log "kafka: fetching org.apache.kafka:kafka_2.13:$KAFKA_VERSION and its runtime jars with Maven"
    tmp="$(mktemp -d "$LOCAL_DIR/kafka-dist/.tmp-$KAFKA_VERSION-XXXXXX")"
    if ! mvn -q -B -f "$SPINROOM_DEPLOY_DIR/kafka/pom.xml" -Dkafka.version="$KAFKA_VERSION" \
        dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp/libs" >"$tmp/mvn.log" 2>&1 ||
       [[ ! -f $tmp/libs/kafka_2.13-$KAFKA_VERSION.jar ]]; then
      cp "$tmp/mvn.log" "$LOCAL_DIR/kafka-dist/mvn-failed.log"
      rm -rf "$tmp"
      fail maven "$LOCAL_DIR/kafka-dist/mvn-failed.log" "could not fetch Kafka $KAFKA_VERSION from Maven Central"
    fi
    chmod 755 "$tmp"     # mktemp made it 700
    rm -rf "$KAFKA_DIST_DIR"
    mv "$tmp" "$KAFKA_DIST_DIR"
    kafka_pom_hash >"$KAFKA_DIST_DIR/.complete"
    log "kafka: $(find "$KAFKA_DIST_DIR/libs" -name '*.jar' | wc -l) jars in $KAFKA_DIST_DIR/libs ($(secs_since "$t0"))"
  fi
  exec 9>&-
}

# ----------------------------------------------------------- PostgreSQL ---

# as_pg CMD...: run as the postgres user from a directory it can read.
as_pg() { (cd / && runuser -u postgres -- "$@"); }

# pg_resolve_dir [create]: sets PG_DIR, PGDATA, PG_SOCK_DIR, PG_LOG.
# The data must sit where the postgres user can traverse every parent. A repo
# under /root (mode 700) is not; then the data goes to
# /var/tmp/spinroom-<hash of the profile dir>/ and the choice is recorded.
pg_resolve_dir() {
  local create=${1:-}
  if [[ -s $PG_LOCATION_FILE ]]; then
    PG_DIR="$(cat "$PG_LOCATION_FILE")"
  else
    PG_DIR="$PROFILE_DIR/postgres"
    if [[ -n $create ]] && ! runuser -u postgres -- test -x "$PROFILE_DIR" 2>/dev/null; then
      PG_DIR="/var/tmp/spinroom-$(printf '%s' "$PROFILE_DIR" | sha1sum | cut -c1-12)/postgres"
      log "postgres: user 'postgres' cannot traverse $PROFILE_DIR; using $PG_DIR instead"
      # No record means the profile dir was wiped (a reset): do not revive
      # old data from the fallback place unless it is still running.
      PGDATA="$PG_DIR/data"
      if [[ -d $PG_DIR ]] && ! pg_running; then rm -rf "$PG_DIR"; fi
    fi
  fi
  PGDATA="$PG_DIR/data"
  PG_SOCK_DIR="$PG_DIR/run"
  PG_LOG="$PG_DIR/postgres.log"
  # Unix socket paths are limited to 107 bytes: shorten if the tree is deep.
  if (( ${#PG_SOCK_DIR} > 80 )); then
    PG_SOCK_DIR="/var/tmp/spinroom-$(printf '%s' "$PG_DIR" | sha1sum | cut -c1-12)-pgsock"
  fi
  if [[ -n $create ]]; then
    mkdir -p "$PG_DIR" "$PG_SOCK_DIR"
    chown postgres:postgres "$PG_DIR" "$PG_SOCK_DIR"
    chmod 755 "$PG_DIR" "$PG_SOCK_DIR"
    printf '%s\n' "$PG_DIR" >"$PG_LOCATION_FILE"
  fi
}

pg_postmaster_pid() { { head -n 1 "$PGDATA/postmaster.pid" 2>/dev/null || true; } | tr -dc '0-9'; }

pg_running() {
  pid_alive "$(pg_postmaster_pid)" && as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1
}

pg_url() { printf 'postgres://spinroom:spinroom@127.0.0.1:%s/postgres' "$PG_PORT"; }

# The real check: log in over TCP with the password, as apps will.
pg_login_ok() {
  [[ "$(PGCONNECT_TIMEOUT=3 psql "$(pg_url)" -XAtqc 'select 1' 2>/dev/null)" == 1 ]]
}

pg_init() {
  [[ -f $PGDATA/PG_VERSION ]] && return 0
  local t0 pwfile; t0=$(now_ms)
  rm -rf "$PGDATA"   # leftovers of an interrupted initdb
  pwfile="$(mktemp "$PG_DIR/.pw-XXXXXX")"
  printf 'spinroom\n' >"$pwfile"
  chown postgres:postgres "$pwfile"
  local extra=()
  [[ $PROFILE == test ]] && extra+=(--no-sync)
  # Superuser 'spinroom' (scram over TCP); the socket, inside the data area
  # and reachable only by postgres/root, trusts local users.
  if ! as_pg "$PG_BIN/initdb" -D "$PGDATA" -U spinroom --pwfile="$pwfile" \
       --auth-host=scram-sha-256 --auth-local=trust -E UTF8 --locale=C.UTF-8 \
       "${extra[@]}" >"$PG_DIR/initdb.log" 2>&1; then
    rm -f "$pwfile"
    fail postgres "$PG_DIR/initdb.log" "initdb failed"
  fi
  rm -f "$pwfile"
  log "postgres: initialised $PGDATA ($(secs_since "$t0"))"
}

# pg_up: sets PG_STATUS for the summary.
pg_up() {
  PG_BIN="$(pg_bin_dir)" || die "postgres: no /usr/lib/postgresql/*/bin/pg_ctl"
  pg_resolve_dir create
  local t0; t0=$(now_ms)
  if pg_running; then
    local i
    for ((i = 0; i < 100; i++)); do pg_login_ok && break; sleep 0.1; done
    pg_login_ok || fail postgres "$PG_LOG" \
      "running from $PGDATA but not accepting spinroom logins on 127.0.0.1:$PG_PORT (another port? run down.sh $PROFILE first)"
    PG_STATUS="already running"
    return 0
  fi
  pg_init
  port_open "$PG_PORT" && die "postgres: port $PG_PORT is already taken by another process (set SPINROOM_PG_PORT)"
  local opts="-p $PG_PORT -c listen_addresses=127.0.0.1 -k $PG_SOCK_DIR -c max_connections=200"
  [[ $PROFILE == test ]] && opts+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  # The dev profile holds the benches' catalogues (a million songs: about 700 MiB
  # of table and indexes): PostgreSQL's default 128 MB pool rereads them from the
  # page cache a buffer at a time. Tests' databases are small: the default.
  local shared_buffers="${SPINROOM_PG_SHARED_BUFFERS:-}"
  [[ -z $shared_buffers && $PROFILE == dev ]] && shared_buffers=1GB
  [[ -z $shared_buffers || $shared_buffers =~ ^[0-9]+(kB|MB|GB)$ ]] || die "bad SPINROOM_PG_SHARED_BUFFERS '$shared_buffers' (e.g. 1GB)"
  [[ -n $shared_buffers ]] && opts+=" -c shared_buffers=$shared_buffers"
  local attempt ok=0 i pid
  # Right after a crash the first start can fail: the dead postmaster is a
  # zombie until reaped (postgres then refuses its lock file) or old backends
  # still hold shared memory. Wait for those, and retry.
  for attempt in 1 2 3 4 5 6 7 8; do
    for ((i = 0; i < 100; i++)); do   # while the old postmaster is a zombie
      pid="$(pg_postmaster_pid)"
      kill -0 "$pid" 2>/dev/null && ! pid_alive "$pid" || break
      sleep 0.1
    done
    if as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$PG_LOG" -w -t 60 -o "$opts" start >/dev/null 2>&1 8>&-; then
      ok=1; break
    fi
    log "postgres: start attempt $attempt failed, retrying"
    sleep 1
  done
  (( ok )) || fail postgres "$PG_LOG" "did not start"
  pg_login_ok || fail postgres "$PG_LOG" "started but spinroom cannot log in at $(pg_url)"
  PG_STATUS="started in $(secs_since "$t0")"
}

pg_down() {
  PG_BIN="$(pg_bin_dir)" || { log "postgres: not installed"; return 0; }
  pg_resolve_dir
  if ! pg_running; then log "postgres: not running"; return 0; fi
  local t0; t0=$(now_ms)
  as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" stop -m fast -w -t 60 >/dev/null ||
    fail postgres "$PG_LOG" "pg_ctl stop failed"
  log "postgres: stopped ($(secs_since "$t0"))"
}

# ---------------------------------------------------------------- Redis ---

redis_ping() { [[ "$(timeout 2 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" == PONG ]]; }

redis_up() {
  local pidfile="$REDIS_DIR/redis.pid" logf="$REDIS_DIR/redis.log" t0 i
  t0=$(now_ms)
  if pid_matches "$(read_pid "$pidfile")" redis-server; then
    for ((i = 0; i < 50; i++)); do redis_ping && break; sleep 0.1; done
    redis_ping || fail redis "$logf" "running (pid $(read_pid "$pidfile")) but no PONG on port $REDIS_PORT (another port? run down.sh $PROFILE first)"
    REDIS_STATUS="already running"
    return 0
  fi
  port_open "$REDIS_PORT" && die "redis: port $REDIS_PORT is already taken by another process (set SPINROOM_REDIS_PORT)"
  rm -f "$pidfile"
  # In-memory only: nothing is saved, so a restart starts empty.
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes --dir "$REDIS_DIR" \
    --pidfile "$pidfile" --logfile "$logf" --save '' --appendonly no >/dev/null 2>&1 8>&- ||
    fail redis "$logf" "redis-server refused to start"
  for ((i = 0; i < 100; i++)); do redis_ping && break; sleep 0.1; done
  redis_ping || fail redis "$logf" "no PONG on 127.0.0.1:$REDIS_PORT after 10s"
  REDIS_STATUS="started in $(secs_since "$t0")"
}

redis_down() { stop_pid redis "$REDIS_DIR/redis.pid" redis-server 20; }

# -------------------------------------------------------------- Mailpit ---

# Mailpit catches every mail the services send (SMTP) and shows it in a web
# inbox with a REST API (/api/v1/messages), which the tests read. It is a Go
# program that deploy/tools/install.sh builds once into .local/tools/bin.
mailpit_bin() { printf '%s/tools/bin/mailpit' "$LOCAL_DIR"; }

mailpit_ready() { port_open "$SMTP_PORT" && port_open "$MAILPIT_PORT"; }

mailpit_up() {
  local pidfile="$MAILPIT_DIR/mailpit.pid" logf="$MAILPIT_DIR/mailpit.log" t0 i
  t0=$(now_ms)
  if pid_matches "$(read_pid "$pidfile")" "$MAILPIT_DIR/mailpit.db"; then
    for ((i = 0; i < 50; i++)); do mailpit_ready && break; sleep 0.1; done
    mailpit_ready || fail mailpit "$logf" "running (pid $(read_pid "$pidfile")) but not answering on ports $SMTP_PORT/$MAILPIT_PORT (other ports? run down.sh $PROFILE first)"
    MAILPIT_STATUS="already running"
    return 0
  fi
  SPINROOM_LOCAL_DIR="$LOCAL_DIR" bash "$SPINROOM_REPO_DIR/deploy/tools/install.sh" mailpit >/dev/null 8>&- ||
    die "mailpit: could not be built (deploy/tools/install.sh mailpit)"
  local p
  for p in "$SMTP_PORT" "$MAILPIT_PORT"; do
    port_open "$p" && die "mailpit: port $p is already taken by another process (set SPINROOM_SMTP_PORT / SPINROOM_MAILPIT_PORT)"
  done
  rm -f "$pidfile"
  # Its own session (setsid), like Kafka's broker; the newest 2000 mails are kept.
  setsid nohup bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$pidfile" \
    "$(mailpit_bin)" --database "$MAILPIT_DIR/mailpit.db" --max 2000 \
    --smtp "127.0.0.1:$SMTP_PORT" --listen "127.0.0.1:$MAILPIT_PORT" \
    --disable-version-check --smtp-disable-rdns --quiet \
    </dev/null >>"$logf" 2>&1 8>&- &
  for ((i = 0; i < 100; i++)); do mailpit_ready && break; sleep 0.1; done
  mailpit_ready || fail mailpit "$logf" "not answering on 127.0.0.1:$SMTP_PORT/$MAILPIT_PORT after 10s"
  MAILPIT_STATUS="started in $(secs_since "$t0")"
}

mailpit_down() { stop_pid mailpit "$MAILPIT_DIR/mailpit.pid" "$MAILPIT_DIR/mailpit.db" 20; }

# ---------------------------------------------------------------- Kafka ---

kafka_write_config() {
  # Rewritten on every start so port overrides take effect. A static voter
  # (controller.quorum.voters) rather than a formatted --standalone quorum:
  # the controller's address is then not baked into the formatted log, so
  # SPINROOM_KAFKA_PORT can change between runs.
  cat >"$KAFKA_DIR/server.properties" <<EOF
# Written by deploy/local/lib.sh on each start; edits are lost.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$KAFKA_DIR/data
num.partitions=3
auto.create.topics.enable=true
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
# After an unclean stop the controller waits out the old broker session
# before the restarted broker may register: 4 s instead of 9 s.
broker.heartbeat.interval.ms=1000
broker.session.timeout.ms=4000
EOF
}

# kafka_metadata_ok: send a real Metadata request (v4: non-flexible, the
# oldest version Kafka 4 accepts) over bash's /dev/tcp and check that the
# reply carries our correlation id and at least one broker. Costs ~10 ms,
# unlike a JVM-based admin tool (~2 s).
kafka_metadata_ok() {
  local hex
  hex="$(timeout 3 bash -c '
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    # size=23 | api_key=3 (Metadata) | version=4 | correlation_id=0x5350
    # | client_id="spinroom" | topics=null (all) | allow_auto_topic_creation=false
    printf "\x00\x00\x00\x17\x00\x03\x00\x04\x00\x00\x53\x50\x00\x08spinroom\xff\xff\xff\xff\x00" >&3
    head -c 16 <&3' _ "$KAFKA_PORT" 2>/dev/null | od -An -v -tx1 | tr -d ' \n')" || return 1
  # reply: size(4) correlation_id(4) throttle_ms(4) broker_count(4)
  [[ ${#hex} -eq 32 && ${hex:8:8} == 00005350 && ${hex:24:8} != 00000000 ]]
}

# Class-data sharing (AppCDS): a broker started without an archive records
# the classes it loaded when it exits cleanly (down.sh; ~5 s, once), and later
# starts map them: ~1.5 s faster. Shared by profiles, keyed by the JVM build
# (a different JVM just ignores a foreign archive).
kafka_cds_file() {
  local j; j="$(readlink -f "$(command -v java)")"
  printf '%s/cds/%s.jsa' "$KAFKA_DIST_DIR" "$(stat -c '%n %Y %s' "$j" | sha1sum | cut -c1-12)"
}

kafka_java() { java -cp "$KAFKA_DIST_DIR/libs/*" "$@"; }

kafka_format() {
  [[ -f $KAFKA_DIR/data/meta.properties ]] && return 0
  local cid t0; t0=$(now_ms)
  # Any 16 random bytes, base64url without padding, is a valid cluster id;
  # like Kafka's own generator, avoid a leading '-' (it would parse as a flag).
  cid="$(cat "$KAFKA_DIR/cluster.id" 2>/dev/null || true)"
  while [[ ${#cid} -ne 22 || $cid == -* ]]; do
    cid="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
  done
  printf '%s\n' "$cid" >"$KAFKA_DIR/cluster.id"
  rm -rf "$KAFKA_DIR/data"
  kafka_java -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
    -Dlog4j2.configurationFile="$SPINROOM_DEPLOY_DIR/kafka/tools-log4j2.properties" \
    kafka.tools.StorageTool format -t "$cid" -c "$KAFKA_DIR/server.properties" \
    >"$KAFKA_DIR/format.log" 2>&1 || fail kafka "$KAFKA_DIR/format.log" "storage format failed"
  log "kafka: formatted $KAFKA_DIR/data, cluster id $cid ($(secs_since "$t0"))"
}

# kafka_launch: start the broker in the background without waiting, so that
# PostgreSQL and Redis come up while the JVM boots. Sets KAFKA_T0/KAFKA_STATUS.
kafka_launch() {
  local pidfile="$KAFKA_DIR/kafka.pid"
  KAFKA_T0=$(now_ms)
  KAFKA_STATUS=""
  if pid_matches "$(read_pid "$pidfile")" "$KAFKA_DIR/server.properties"; then
    grep -qx "advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT" "$KAFKA_DIR/server.properties" ||
      die "kafka: already running with another port ($(grep '^advertised' "$KAFKA_DIR/server.properties")); run down.sh $PROFILE first"
    KAFKA_STATUS="already running"
    return 0
  fi
  local p
  for p in "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"; do
    port_open "$p" && die "kafka: port $p is already taken by another process (set SPINROOM_KAFKA_PORT)"
  done
  ensure_kafka_dist
  mkdir -p "$KAFKA_DIR"
  kafka_write_config
  kafka_format
  rm -f "$pidfile"
  local cds cds_opts=('-Xlog:cds*=off')
  cds="$(kafka_cds_file)"
  rm -f "$KAFKA_DIR/kafka.jsa.tmp"
  if [[ -s $cds ]]; then
    cds_opts+=(-XX:SharedArchiveFile="$cds")
  else
    cds_opts+=(-XX:ArchiveClassesAtExit="$KAFKA_DIR/kafka.jsa.tmp")
  fi
  # Appended on every start: keep one old generation past 20 MB.
  if (( $(stat -c %s "$KAFKA_DIR/kafka.log" 2>/dev/null || echo 0) > 20000000 )); then
    mv -f "$KAFKA_DIR/kafka.log" "$KAFKA_DIR/kafka.log.1"
  fi
  printf '\n===== %s: starting Kafka %s =====\n' "$(date -Is)" "$KAFKA_VERSION" >>"$KAFKA_DIR/kafka.log"
  # setsid: own session, so the broker outlives this shell and a Ctrl-C
  # aimed at it. The inner shell records its pid, then becomes java.
  # shellcheck disable=SC2086  # KAFKA_JVM_OPTS is a list of flags
  setsid nohup bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$pidfile" \
    java -Xms256m -Xmx768m $KAFKA_JVM_OPTS "${cds_opts[@]}" -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$SPINROOM_DEPLOY_DIR/kafka/log4j2.properties" \
    -cp "$KAFKA_DIST_DIR/libs/*" kafka.Kafka "$KAFKA_DIR/server.properties" \
    </dev/null >>"$KAFKA_DIR/kafka.log" 2>&1 8>&- &
  local i
  for ((i = 0; i < 50; i++)); do [[ -s $pidfile ]] && break; sleep 0.02; done
}

# kafka_wait: until the broker answers a metadata request (or dies).
kafka_wait() {
  local pidfile="$KAFKA_DIR/kafka.pid" logf="$KAFKA_DIR/kafka.log" i
  for ((i = 0; i < 1200; i++)); do      # 120 s
    kafka_metadata_ok && break
    pid_matches "$(read_pid "$pidfile")" "$KAFKA_DIR/server.properties" ||
      fail kafka "$logf" "broker process exited during start-up"
    sleep 0.1
  done
  kafka_metadata_ok || fail kafka "$logf" "no metadata answer on 127.0.0.1:$KAFKA_PORT after 120s"
  [[ -n $KAFKA_STATUS ]] || KAFKA_STATUS="started in $(secs_since "$KAFKA_T0")"
}

kafka_down() {
  stop_pid kafka "$KAFKA_DIR/kafka.pid" "$KAFKA_DIR/server.properties" 60
  local tmp="$KAFKA_DIR/kafka.jsa.tmp" cds
  if [[ -s $tmp && $STOP_KILLED == 0 ]]; then
    cds="$(kafka_cds_file)"
    mkdir -p "$(dirname "$cds")"
    mv -f "$tmp" "$cds" && log "kafka: saved class-data archive $cds for faster starts"
  fi
  rm -f "$tmp"
}

# kafka_down_begin: signal the broker first and wait for it last (kafka_down),
# so that its shutdown overlaps PostgreSQL's and Redis's.
kafka_down_begin() {
  local pid; pid="$(read_pid "$KAFKA_DIR/kafka.pid")"
  pid_matches "$pid" "$KAFKA_DIR/server.properties" && kill -TERM "$pid" 2>/dev/null || true
}
