#!/usr/bin/env bash
# Search latency on a shared store of 1 000 000 records (issue 21): `make bench-search`.
#
#   env: RECORDS=1000000 ROUNDS=5 MOCKAPNS=path
#
# A throwaway PostgreSQL cluster (bench/pg.sh) and one `mockapns serve --store` instance; RECORDS real pushes
# through it (`mockapns send`, 10 000 tokens, each body numbered with --payload-template), then SQL turns 2 % of the
# answers into 410 Unregistered and 10 % of the topics into com.example.other (line, columns, search text and the
# search blocks' words alike),
# and the instance's control API answers the dashboard's searches: the median time of ROUNDS requests for a page of
# 100 (`curl` time_total, HTTP included), with how many records the page held. Targets (issue 21): under 200 ms for
# topic, token, status, reason and a word of the alert.
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDS=${RECORDS:-1000000}
ROUNDS=${ROUNDS:-5}
source bench/lib.sh
use_mockapns
source bench/pg.sh

printf '%s' '{"aps":{"alert":{"title":"Your order has shipped","body":"Parcel {{n}} left our warehouse and arrives tomorrow."},"badge":1},"orderId":"{{n}}"}' > "$WORK/payload.json"
write_tokens 10000 "$WORK/tokens.txt"

port=$(free_port); control=$(free_port)
"$BIN" serve --port "$port" --control-port "$control" --quiet --store "$STORE" > "$WORK/serve.log" 2>&1 &
SERVE=$!; PIDS+=($SERVE)
wait_port "$port"; wait_port "$control"
echo "filling the store with $RECORDS pushes…" >&2
start=$(date +%s.%N)
"$BIN" send "$WORK/payload.json" --token-file "$WORK/tokens.txt" --payload-template --topic com.example.app \
    --push-type alert --url "https://127.0.0.1:$port" --count "$RECORDS" --concurrency 200 --connections 2 --json \
    > "$WORK/send.json" 2> "$WORK/send.err" || { echo "send failed" >&2; cat "$WORK/send.json" "$WORK/send.err" >&2; exit 1; }
for _ in $(seq 1 600); do [ "$(sql 'SELECT count(*) FROM mockapns_records')" -ge "$RECORDS" ] && break; sleep 0.5; done
fill=$(python3 -c "print(round($(date +%s.%N) - $start, 1))")
sql "UPDATE mockapns_records SET status = 410, reason = 'Unregistered',
        line = replace(line, '\"status\":200,\"reason\":null', '\"status\":410,\"reason\":\"Unregistered\"'),
        search_text = search_text || E'\nunregistered' WHERE id % 50 = 7" > /dev/null
sql "UPDATE mockapns_records SET topic = 'com.example.other',
        line = replace(line, '\"com.example.app\"', '\"com.example.other\"'),
        search_text = replace(search_text, 'com.example.app', 'com.example.other') WHERE id % 10 = 3" > /dev/null
# The blocks hold each batch's words as the writer wrote them: rebuilt from the changed rows, as migration 6 builds
# them for a store written before it (2 000 ids a block). A mockapns before schema 6 (MOCKAPNS=…) has none.
if [ "$(sql "SELECT to_regclass('mockapns_search_blocks') IS NOT NULL")" = t ]; then
sql "DELETE FROM mockapns_search_blocks" > /dev/null
sql "INSERT INTO mockapns_search_blocks (namespace, first_id, last_id, words)
     SELECT namespace, min(id), max(id), coalesce(string_agg(DISTINCT word, E'\n'), '') FROM (
         SELECT namespace, id, regexp_split_to_table(coalesce(search_text, ''), '[\x01-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]+') AS word
         FROM mockapns_records) words WHERE word <> '' GROUP BY namespace, id / 2000" > /dev/null
sql "VACUUM ANALYZE mockapns_search_blocks" > /dev/null
fi
sql "VACUUM ANALYZE mockapns_records" > /dev/null
rows=$(sql 'SELECT count(*) FROM mockapns_records')
# The table's, or every partition's (their parent holds nothing itself), with indexes.
size=$(sql "SELECT pg_size_pretty(sum(pg_total_relation_size(oid))) FROM pg_class WHERE relkind = 'r' AND relname LIKE 'mockapns_records%'")
token=$(sed -n 4242p "$WORK/tokens.txt")
echo "store: $rows records ($size with indexes), filled in ${fill} s" >&2

search() {
    local query=$1 url times=() n
    url="http://127.0.0.1:$control/api/v1/search?limit=100&q=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$query")"
    n=$(curl -sf "$url" | jq '.notifications | length')
    for _ in $(seq 1 "$ROUNDS"); do times+=("$(curl -sf -o /dev/null -w '%{time_total}' "$url")"); done
    python3 -c 'import statistics, sys; print("| `%s` | %d | %.1f ms |" % (sys.argv[1], int(sys.argv[2]), 1000 * statistics.median(map(float, sys.argv[3:]))))' \
        "$query" "$n" "${times[@]}"
}

echo "| query (page of 100, newest first) | records on the page | median of $ROUNDS |"
echo "|---|---|---|"
search "topic:com.example.other"
search "token:$token"
search "token:${token:0:6}"
search "token:${token:0:2}"
search "status:410"
search "reason:Unregistered"
search '"parcel 654321 left"'
search "body:654321"
search "654321"
search "shipped"
search "title:shipped status:4xx"
search "-status:200"
search "body:nowhere"
search "has:badge"
search "has:inAppSymbol"
kill -TERM "$SERVE"; wait "$SERVE" || true
