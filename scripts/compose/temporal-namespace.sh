#!/bin/sh
# Long-running admin-tools service of docker-compose.yml: registers the namespace Formward
# uses once the cluster answers, then stays up as the Temporal CLI at hand for operators
# (`docker compose exec temporal-admin-tools temporal workflow list`) and as the probe its
# health check runs (`temporal operator cluster health`).
set -eu

until temporal operator cluster health --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1; do
  echo "waiting for the Temporal cluster at $TEMPORAL_ADDRESS"
  sleep 2
done
if ! temporal operator namespace describe --address "$TEMPORAL_ADDRESS" \
  --namespace "$TEMPORAL_NAMESPACE" >/dev/null 2>&1; then
  temporal operator namespace create --address "$TEMPORAL_ADDRESS" \
    --namespace "$TEMPORAL_NAMESPACE" --retention "$TEMPORAL_NAMESPACE_RETENTION"
fi
echo "namespace $TEMPORAL_NAMESPACE is ready"
trap 'exit 0' INT TERM
while :; do sleep 3600 & wait $!; done
