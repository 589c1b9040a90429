# tests/serve/lib.sh: start and stop `aflame-render serve` for the serve
# tests (sourced). Only ever on 127.0.0.1, on a port the kernel picks.
#   start_server DATA LOG [serve options]   sets SERVER_PID and URL
#   stop_server [SIGNAL]                   SIGTERM (or SIGNAL), wait; returns its status
#   upload FILE [curl options]             prints "code location"
#   status_state HASH                      the state in HASH's status now
#   wait_done HASH [seconds]               waits, prints the final state
#   vm KEY                                 the server's VmHWM/VmRSS in KiB

start_server() {
	local data=$1 log=$2
	shift 2
	"$AFLAME" serve --data "$data" --bind 127.0.0.1 --port 0 "$@" >"$log.out" 2>"$log.err" &
	SERVER_PID=$!
	URL=
	for _ in $(seq 300); do
		URL=$(sed -n 's|.*listening on \(http://127\.0\.0\.1:[0-9][0-9]*\)/.*|\1|p' "$log.out")
		[ -n "$URL" ] && return 0
		kill -0 "$SERVER_PID" 2>/dev/null || break
		sleep 0.1
	done
	return 1
}

stop_server() {
	[ -n "${SERVER_PID:-}" ] || return 0
	kill -"${1:-TERM}" "$SERVER_PID" 2>/dev/null
	local rc=0
	wait "$SERVER_PID" || rc=$?
	SERVER_PID=
	return $rc
}

upload() {
	local file=$1
	shift
	curl -sS --max-time 60 -o /dev/null -w '%{http_code} %{redirect_url}' -F "trace=@$file" "$@" "$URL/upload"
}

# status_state HASH: the "state" of HASH's JSON status, asked through
# bash's /dev/tcp: the polls below would otherwise start hundreds of curl
# processes (50 ms of CPU each); the status itself is checked with curl
status_state() {
	local hostport=${URL#http://} resp=
	{
		exec 3<>"/dev/tcp/${hostport%:*}/${hostport##*:}" &&
			printf 'GET /trace/%s/status HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' \
				"$1" "$hostport" >&3 &&
			IFS= read -r -d '' -t 10 resp <&3
		exec 3<&-
	} 2>/dev/null
	[[ $resp =~ \"state\":\"([a-z]*)\" ]] && echo "${BASH_REMATCH[1]}"
}

# state of HASH once it is no longer queued or running (or "timeout")
wait_done() {
	local hash=$1 limit=${2:-120} state=
	for _ in $(seq $((limit * 10))); do
		state=$(status_state "$hash")
		case $state in done | failed | unknown) echo "$state"; return 0 ;; esac
		sleep 0.1
	done
	echo timeout
}

vm() {
	sed -n "s/^$1:[[:space:]]*\([0-9]*\) kB/\1/p" "/proc/$SERVER_PID/status"
}
