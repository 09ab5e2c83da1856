#!/bin/sh
# shellcheck shell=sh
# Guest side of vmtrace, sourced by the script vmtrace runs in the guest:
# record traces there and send files back through the console, which is the
# only channel scripts/vm has (busybox gzip and base64).
#
#   st_record NAME "EVENT..." CMD [ARGS...]
#       trace-cmd record of CMD with those events (each passed as -e,
#       file version 6),
#       then st_send NAME of the trace.dat; CMD's status is returned
#   st_send NAME FILE
#       FILE gzip'ed and base64-encoded between marker lines; vmtrace
#       writes it to OUT/NAME after checking its length

st_mark='@@schedtrace@@'

st_send() {
	st_name=$1
	st_file=$2
	gzip -c "$st_file" >/tmp/st-send.gz
	echo "$st_mark begin $st_name"
	base64 </tmp/st-send.gz
	echo "$st_mark end $st_name $(wc -c </tmp/st-send.gz)"
	rm -f /tmp/st-send.gz
}

st_record() {
	st_name=$1
	st_events=$2
	shift 2
	st_args=
	for st_e in $st_events; do
		st_args="$st_args -e $st_e"
	done
	st_rc=0
	# trace-cmd 3.1's default (version 7, compressed) comes out unreadable
	# from these guests (no kallsyms); version 6 reads everywhere.
	# shellcheck disable=SC2086
	trace-cmd record -q --file-version 6 $st_args -o "/tmp/$st_name" "$@" || st_rc=$?
	if [ -f "/tmp/$st_name" ]; then
		st_send "$st_name" "/tmp/$st_name"
	else
		echo "st_record: trace-cmd wrote no /tmp/$st_name" >&2
		[ "$st_rc" -ne 0 ] || st_rc=1
	fi
	return "$st_rc"
}
