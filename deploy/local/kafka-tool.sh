#!/usr/bin/env bash
# Run a Kafka command-line tool from the jars up.sh fetched, e.g.
#   bash deploy/local/kafka-tool.sh TopicCommand --bootstrap-server 127.0.0.1:29092 --list
#   bash deploy/local/kafka-tool.sh ConsoleProducer --bootstrap-server 127.0.0.1:29092 --topic t
#   bash deploy/local/kafka-tool.sh consumer.ConsoleConsumer --bootstrap-server 127.0.0.1:29092 --topic t --from-beginning --max-messages 1
# A class name without a package is taken from org.apache.kafka.tools.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

(( $# >= 1 )) || die "usage: kafka-tool.sh <ToolClass> [args...]"
select_profile dev      # only for LOCAL_DIR / KAFKA_DIST_DIR
kafka_dist_ok || die "no Kafka jars in $KAFKA_DIST_DIR: run deploy/local/up.sh first"
cls=$1; shift
[[ $cls == *.* && $cls != consumer.* ]] || cls="org.apache.kafka.tools.$cls"
# Short-lived client JVM: quick start matters more than peak speed.
exec java -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
  -Dlog4j2.configurationFile="$SPINROOM_DEPLOY_DIR/kafka/tools-log4j2.properties" \
  -cp "$KAFKA_DIST_DIR/libs/*" "$cls" "$@"
