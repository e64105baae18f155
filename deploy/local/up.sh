#!/usr/bin/env bash
# Start local infrastructure for a profile: PostgreSQL, Redis, Kafka, Mailpit
# (and make sure ffmpeg is installed). Idempotent: what is already up is only checked.
#   bash deploy/local/up.sh [dev|test]        (default dev)
# Writes $SPINROOM_LOCAL_DIR/<profile>/infra.env. See README.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

(( $# <= 1 )) || die "usage: up.sh [dev|test]"
select_profile "${1:-dev}"
T_START=$(now_ms)

make_local_dirs
lock_profile
ensure_packages          # apt-get only if something is missing

# Kafka's JVM takes the longest to boot: launch it first, bring up the
# others meanwhile, then wait for it.
kafka_launch
pg_up
redis_up
mailpit_up
kafka_wait

# Written last, and atomically, so its presence means "all up".
tmp="$(mktemp "$PROFILE_DIR/.infra.env.XXXXXX")"
cat >"$tmp" <<ENV
PG_ADMIN_URL=$(pg_url)
REDIS_URL=redis://127.0.0.1:$REDIS_PORT
KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT
SMTP_URL=smtp://127.0.0.1:$SMTP_PORT
MAILPIT_URL=http://127.0.0.1:$MAILPIT_PORT
ENV
chmod 644 "$tmp"
mv -f "$tmp" "$INFRA_ENV"

echo "postgres  $(pg_url)  [$PG_STATUS; data $PGDATA]"
echo "redis     redis://127.0.0.1:$REDIS_PORT  [$REDIS_STATUS; pid $(read_pid "$REDIS_DIR/redis.pid")]"
echo "kafka     127.0.0.1:$KAFKA_PORT  [Kafka $KAFKA_VERSION, KRaft; $KAFKA_STATUS; pid $(read_pid "$KAFKA_DIR/kafka.pid")]"
echo "mailpit   smtp://127.0.0.1:$SMTP_PORT, inbox http://127.0.0.1:$MAILPIT_PORT  [$MAILPIT_STATUS; pid $(read_pid "$MAILPIT_DIR/mailpit.pid")]"
echo "ffmpeg    $(command -v ffmpeg)  [$(ffmpeg -hide_banner -version 2>/dev/null | head -n 1 | cut -d' ' -f1-3)]"
echo "profile $PROFILE up in $(secs_since "$T_START"); env file: $INFRA_ENV"
