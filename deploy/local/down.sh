#!/usr/bin/env bash
# Stop what up.sh started for a profile (by recorded pid / pg_ctl), wait for
# each to exit. Idempotent; data stays (reset: rm -rf .local/<profile>).
#   bash deploy/local/down.sh [dev|test]      (default dev)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

(( $# <= 1 )) || die "usage: down.sh [dev|test]"
select_profile "${1:-dev}"
if [[ ! -d $PROFILE_DIR ]]; then
  log "nothing to stop: $PROFILE_DIR does not exist"
  exit 0
fi
lock_profile

# Signal Kafka first: its shutdown is the slowest, and overlaps the others'.
kafka_down_begin
pg_down
redis_down
mailpit_down
kafka_down
rm -f "$INFRA_ENV"     # its presence means "up"
log "profile $PROFILE down"
