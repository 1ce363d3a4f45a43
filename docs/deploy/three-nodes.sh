#!/usr/bin/env bash
# Three mcpkit demo nodes sharing one Redis, behind haproxy (round robin, no stickiness),
# all on this machine: http://127.0.0.1:8080/mcp. Needs redis-server and haproxy
# (Debian: apt-get install redis-server haproxy) and mcpkit with ioredis installed.
# Ctrl-C stops everything.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mcpkit="${MCPKIT:-npx mcpkit}"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' EXIT INT TERM

redis-server --port 6390 --bind 127.0.0.1 --save '' --appendonly no &
pids+=($!)
until redis-cli -p 6390 ping >/dev/null 2>&1; do sleep 0.1; done

for port in 3001 3002 3003; do
  $mcpkit demo-server --port "$port" --redis redis://127.0.0.1:6390 &
  pids+=($!)
done

# Start the balancer once the nodes listen, so its first health checks find them up.
for port in 3001 3002 3003; do
  until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do sleep 0.1; done
done
haproxy -f "$here/haproxy.cfg" -db &
pids+=($!)
echo "MCP endpoint: http://127.0.0.1:8080/mcp (3 nodes, Redis on 6390)"
wait
