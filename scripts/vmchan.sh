# shellcheck shell=bash
# vmchan.sh - the host's end of the guest's result channel, sourced by
# scripts/vm.sh (and by tests/t-vmmeta.sh).  kernel/init frames each file
# it sends on the second serial port as
#   SLICEBENCH-BEGIN name=NAME size=BYTES sha256=HEX
#   base64 lines
#   SLICEBENCH-END name=NAME
# and ends with "SLICEBENCH-DONE status=S ...".  The serial line may add
# CRs and lose the tail when the guest dies, so nothing is trusted that
# the size and the hash do not confirm.

# vmchan_decode CHAN DIR: writes each intact frame's file into DIR (by the
# base name of NAME only: nothing lands outside DIR), says on stderr which
# frames were corrupt, truncated or unusable, and prints the guest's
# status: DONE's status= ("?" without one), or "incomplete" without DONE.
# A header without name=, sha256= or a numeric size= skips its frame.
# Non-zero only when CHAN cannot be read or DIR not written.
vmchan_decode() (
	set -euo pipefail
	local chan=$1 dir=$2 tmp kind n size sha name got sum base text
	mkdir -p "$dir"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# awk splits the channel: each frame's base64 text into $tmp/N.b64,
	# and an index of what was seen, in order, one field a line (a name
	# may hold any byte but a newline): "frame N SIZE", SHA, NAME;
	# "truncated", NAME; "malformed", the header; "done", STATUS; or
	# "incomplete".  A new BEGIN drops an unfinished frame, as the
	# guest only starts one after the last has ended.
	LC_ALL=C awk -v tmp="$tmp" -v idx="$tmp/index" '
	function fields(a,    i, p) {
		split("", a)
		for (i = 2; i <= NF; i++)
			if ((p = index($i, "=")))
				a[substr($i, 1, p - 1)] = substr($i, p + 1)
	}
	{ gsub(/\r/, "") }
	index($0, "SLICEBENCH-BEGIN ") == 1 {
		if (cur)
			close(body)
		cur = 0
		fields(f)
		if (!("name" in f) || !("sha256" in f) || f["size"] !~ /^[0-9]+$/) {
			print "malformed\n" substr($0, 1, 200) >idx
			next
		}
		cur = ++n
		padded = 0
		body = tmp "/" n ".b64"
		printf "" >body
		name = f["name"]
		sha = f["sha256"]
		size = f["size"]
		sub(/^0+/, "", size)
		if (size == "")
			size = 0
		next
	}
	index($0, "SLICEBENCH-END ") == 1 && cur {
		close(body)
		print "frame " cur " " size "\n" sha "\n" name >idx
		cur = 0
		next
	}
	index($0, "SLICEBENCH-DONE ") == 1 {
		fields(d)
		status = ("status" in d) ? d["status"] : "?"
		done = 1
		next
	}
	# Base64 ends at its padding: the rest of the frame is not data.
	cur && !padded {
		if (match($0, /=+/)) {
			$0 = substr($0, 1, RSTART + RLENGTH - 1)
			padded = 1
		}
		print >body
	}
	END {
		if (cur)
			print "truncated\n" name >idx
		print (done ? "done\n" status : "incomplete") >idx
	}' "$chan"
	while read -r kind n size; do
		case $kind in
		frame)
			IFS= read -r sha
			IFS= read -r name
			# -i skips bytes outside the base64 alphabet (line
			# noise): the size and the hash decide
			base64 -d -i <"$tmp/$n.b64" >"$tmp/$n" 2>/dev/null || true
			got=$(wc -c <"$tmp/$n")
			sum=$(sha256sum <"$tmp/$n")
			if [ "$got" != "$size" ] || [ "${sum%% *}" != "$sha" ]; then
				printf 'vm.sh: frame %s corrupt (%s of %s bytes)\n' "$name" "$got" "$size" >&2
				continue
			fi
			base=${name##*/}
			case $base in
			"" | . | ..) printf 'vm.sh: frame %s has no file name: not written\n' "$name" >&2 ;;
			*) mv -f -T "$tmp/$n" "$dir/$base" ;;
			esac
			;;
		truncated)
			IFS= read -r name
			printf 'vm.sh: frame %s truncated\n' "$name" >&2
			;;
		malformed)
			IFS= read -r text
			printf 'vm.sh: frame header malformed, frame skipped: %s\n' "$text" >&2
			;;
		done)
			IFS= read -r text
			printf '%s\n' "$text"
			;;
		incomplete)
			printf 'vm.sh: transfer incomplete (no SLICEBENCH-DONE)\n' >&2
			printf 'incomplete\n'
			;;
		esac
	done <"$tmp/index"
)
