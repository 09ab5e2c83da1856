# The guest's console as scripts/vm shows it: the command's output, the
# lines between the "M begin" and "M end STATUS" markers (M is the awk
# variable m), and the files that the guest sends with --out (base64
# lines between "M out-begin SIZE" and "M out-end SIZE") into the file
# named by the variable data, and their markers' sizes and errors into
# state.  Kernel messages that cut into the files are shown.
#
# A kernel message can cut a line anywhere: it runs from its "[ seconds]"
# stamp to the end of the line, and the cut line goes on in the next one.
# So a marker may be followed by a kernel message on its own line: that
# message is shown, and the marker still counts.

# The kernel message that starts in $0 after position i, or "".
function kernel_tail(i) {
	return match(substr($0, i), /\[ *[0-9]+\.[0-9]+\] .*$/) ? substr($0, i + RSTART - 1) : ""
}

index($0, m " begin") == 1 {
	on = 1
	msg = kernel_tail(length(m " begin") + 1)
	if (msg != "") { print msg; fflush() }
	next
}
index($0, m " end") == 1 {
	on = 0
	msg = kernel_tail(length(m " end") + 1)
	if (msg != "") { print msg; fflush() }
	next
}
!on { next }
out {
	if (match($0, /\[ *[0-9]+\.[0-9]+\] .*$/)) {
		print substr($0, RSTART); fflush()
		$0 = substr($0, 1, RSTART - 1)
	}
	if ($1 == m && $2 == "out-end") { print "end " $3 >state; out = 0 }
	else if ($0 != "") print >data
	next
}
$1 == m && $2 == "out-error" { sub(/^[^ ]* [^ ]* /, ""); print "error " $0 >state; next }
(i = index($0, m " out-begin ")) {
	if (i > 1) print substr($0, 1, i - 1)
	split(substr($0, i), w, " ")
	print "begin " w[3] >state; out = 1; fflush(); next
}
{ print; fflush() }
