#!/bin/sh
# layers.sh - fails when an #include crosses a layer upward.
#
# Every source folder has a README.md with a line "May include: F1 F2 ..."
# (or "nothing"): the folders, named from the repository root, whose
# headers its files may include besides its own. An include is written
# either as a bare name (a header of the same folder) or as a path from the
# root. A folder that holds CLI mains (weft-*.c) may give them more in a
# line "CLI mains may include: F1 F2 ..." (cli/: only programs print, so no
# library file may include it). Run from the repository root; `make check`
# runs it.
set -u
fail=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
folders=$(find common cli trace models energy area estimate plot study -name '*.[ch]' -not -path 'trace/workloads/*.cu' \
	  -exec dirname {} \; | sort -u)
for d in $folders; do
	if [ ! -f "$d/README.md" ]; then
		echo "layers: $d has no README.md saying what it may include"
		fail=1
		continue
	fi
	allowed=$(sed -n 's/^May include: *//p' "$d/README.md" | head -1)
	if [ -z "$allowed" ]; then
		echo "layers: $d/README.md has no 'May include:' line"
		fail=1
		continue
	fi
	mains_allowed=$(sed -n 's/^CLI mains may include: *//p' "$d/README.md" | head -1)
	for f in "$d"/*.[ch]; do
		[ -f "$f" ] || continue
		may=$allowed
		case "${f##*/}" in
		weft-*.c) may="$allowed $mains_allowed" ;;
		esac
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		sed 's/^\([0-9]*\):.*"\([^"]*\)".*/\1 \2/' |
		while read -r line inc; do
			case "$inc" in
			*/*) ;;
			*) if [ -f "$d/$inc" ]; then continue; fi
			   echo "$f:$line: includes \"$inc\", not a header of $d (write the path from the repository root)"
			   echo x >> "$tmp"; continue ;;
			esac
			dir=${inc%/*}
			[ "$dir" = "$d" ] && continue
			ok=0
			for a in $may; do [ "$a" = "$dir" ] && ok=1; done
			if [ $ok = 0 ]; then
				echo "$f:$line: includes \"$inc\": $d may include only: $may ($d/README.md)"
				echo x >> "$tmp"
			fi
		done
	done
done
[ -s "$tmp" ] && fail=1
if [ $fail = 0 ]; then echo "layers: every include points down (folder READMEs' 'May include:')"; fi
exit $fail
