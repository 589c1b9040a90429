#!/bin/sh
# Rebuilds corners.trace and offcpu.trace from their .txtpb (one Record per line) with protoc
# (apt-get install protobuf-compiler); the tests use the committed binary and
# do not need protoc. Layout: "SIMPLEPERF", u16 version 1, per record a
# little-endian u32 length and the Record, a zero length at the end.
set -eu
cd "$(dirname "$0")"
for name in corners offcpu; do
out=$name.trace
printf 'SIMPLEPERF\001\000' >"$out"
grep -v '^#' $name.txtpb | while IFS= read -r line; do
	printf '%s\n' "$line" | protoc --encode=aflame_test.Record report_sample_min.proto >rec.bin
	n=$(wc -c <rec.bin)
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((n & 255)) $((n >> 8 & 255)) $((n >> 16 & 255)) $((n >> 24 & 255)))" >>"$out"
	cat rec.bin >>"$out"
done
printf '\000\000\000\000' >>"$out"
done
rm -f rec.bin
