# catalogue.sh: the bad inputs. Each `bad NAME MESSAGE` is followed by the
# commands that write the input to "$IN" (sourced by tests/suites/bad.sh).
# MESSAGE is what must follow "aflame-render: " on the last line of standard
# error, with IN for the input's path; the exit status must be 1 and no
# output file may remain.
# Binary inputs are built here with printf so that every byte is reviewable.

# le16 N / le32 N: little-endian bytes
le16() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $(($1 >> 8 & 255)))"; }
le32() { le16 $(($1 & 65535)); le16 $(($1 >> 16 & 65535)); }
# header VERSION OFFSET RECORD_SIZE: the legacy/streaming 'SLOW' header, padded to OFFSET
header() {
	printf 'SLOW'; le16 "$1"; le16 "$2"; printf '\0\0\0\0\0\0\0\0'; le16 "$3"
	head -c $(($2 > 18 ? $2 - 18 : 0)) /dev/zero
}
TEXT='*version\n3\nclock=dual\n*threads\n1\tmain\n*methods\n0x8\tC\tk\t()V\tC.java\n*end\n'
# record TID WORD CPU WALL (v3, 14 bytes)
record() { le16 "$1"; le32 "$2"; le32 "$3"; le32 "$4"; }
ART=tests/data/art

# ---- any input ----
bad empty-file "IN: empty file"
: >"$IN"
bad directory "IN: is a directory"
rm -f "$IN"; mkdir "$IN"
bad unreadable-file "IN: cannot read: Input/output error"
rm -f "$IN"; ln -s /proc/self/mem "$IN"
bad binary-noise "IN: unrecognised input: not an ART method trace, a perf.data recording, a pprof profile, an atrace/systrace capture, a Chrome JSON trace, a .cpuprofile, perf script text, folded stacks, a Perfetto trace or a simpleperf report-sample profile"
printf '\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0' >"$IN"
bad nul-bytes-only "IN: unrecognised input: not an ART method trace, a perf.data recording, a pprof profile, an atrace/systrace capture, a Chrome JSON trace, a .cpuprofile, perf script text, folded stacks, a Perfetto trace or a simpleperf report-sample profile"
head -c 4096 /dev/zero >"$IN"
bad simpleperf-cut-length "IN: offset 0xc: the file ends inside a record length"
printf 'SIMPLEPERF\x01\0\0\0' >"$IN"
# pprof: a sample type {type 1, unit 2}, then a sample that claims 5 bytes of 2
bad pprof-cut-sample "IN: offset 0x6: malformed pprof profile: length runs past the end of its message"
printf '\x0a\x04\x08\x01\x10\x02\x12\x05\x0a\x01' >"$IN"
# a sample type naming strings 1 and 7 of a table holding only ""
bad pprof-string-past-table "IN: offset 0x2: malformed pprof profile: string index 1 past the string table (1 strings)"
printf '\x0a\x04\x08\x01\x10\x07\x32\x00' >"$IN"

# ---- sums that would wrap 64 bits (issue 21 item 10) ----
# three slices of 9e18 µs: each fits, their sum does not (drew width -1180)
bad atrace-sum-wraps "IN: the weights add up past 2^64 - 2 (times or counts too large to draw)"
for tid in 100 101 102; do
	printf '  <...>-%d (  100) [000] ...1     0.000001: tracing_mark_write: B|100|s%d\n' $tid $tid
	printf '  <...>-%d (  100) [000] ...1 9000000000000.000000: tracing_mark_write: E|100\n' $tid
done >"$IN"

# ---- ART legacy: text section ----
bad text-only-trace "IN: offset 0x22d: data section after '*end' is text, not binary records (a header-only trace)"
cp "$ART/perflib-header.trace" "$IN"
bad no-end-marker "IN:6: text section ends without '*end'"
printf '*version\n3\n*threads\n1\tmain\n*methods\n' >"$IN"
bad version-not-a-number "IN:2: version 'three' is not a number"
printf '*version\nthree\n*end\n' >"$IN"
bad missing-version-number "IN:2: missing version number"
printf '*version\n*end\nSLOW' >"$IN"
bad thread-line-without-tab "IN:5: thread line is not 'id<TAB>name'"
printf '*version\n3\nclock=dual\n*threads\nmain thread\n*end\n' >"$IN"
bad thread-id-overflow "IN:5: thread line is not 'id<TAB>name'"
printf '*version\n3\nclock=dual\n*threads\n99999999999999999999999\tmain\n*end\n' >"$IN"
bad method-id-not-hex "IN:5: method line is not 'id<TAB>class<TAB>name<TAB>signature...'"
printf '*version\n3\nclock=dual\n*methods\n0xZZ\tC\tk\t()V\tC.java\n*end\n' >"$IN"
bad method-id-too-wide "IN:5: method id 0x123456789 does not fit in 32 bits"
printf '*version\n3\nclock=dual\n*methods\n0x123456789\tC\tk\t()V\tC.java\n*end\n' >"$IN"
bad method-line-one-field "IN:5: method line is not 'id<TAB>class<TAB>name<TAB>signature...'"
printf '*version\n3\nclock=dual\n*methods\n0x10\n*end\n' >"$IN"
bad unknown-section "IN:4: unknown section '*classes'"
printf '*version\n3\nclock=dual\n*classes\n*end\n' >"$IN"

# ---- ART legacy: binary header ----
bad truncated-header "IN: offset 0x47: truncated data section header (5 bytes, need 16)"
{ printf "$TEXT"; printf 'SLOW\3'; } >"$IN"
bad header-without-magic "IN: offset 0x47: data section does not start with 'SLOW' after '*end'"
{ printf "$TEXT"; printf 'WOLS'; le16 3; le16 32; head -c 24 /dev/zero; } >"$IN"
bad header-version-9 "IN: offset 0x4b: unsupported data section version 9 (legacy files have 1, 2 or 3)"
{ printf "$TEXT"; header 9 32 14; } >"$IN"
bad streaming-version-after-text "IN: offset 0x4b: unsupported data section version 243 (legacy files have 1, 2 or 3)"
{ printf "$TEXT"; header 243 32 14; } >"$IN"
bad record-size-0 "IN: offset 0x57: record size 0 is too small for version 3 (need at least 14)"
{ printf "$TEXT"; header 3 32 0; record 1 8 0 0; } >"$IN"
bad record-size-3 "IN: offset 0x57: record size 3 is too small for version 3 (need at least 14)"
{ printf "$TEXT"; header 3 32 3; record 1 8 0 0; } >"$IN"
bad data-offset-past-end "IN: offset 0x4d: data offset 4096 is past the end of the file (46 bytes left)"
{ printf "$TEXT"; header 3 32 14; record 1 8 0 0; } >"$IN"
printf '\0\x10' | dd of="$IN" bs=1 seek=$((0x4d)) conv=notrunc status=none
bad data-offset-too-small "IN: offset 0x4d: data offset 8 is shorter than the header"
{ printf "$TEXT"; header 3 32 14; } >"$IN"
printf '\x08\0' | dd of="$IN" bs=1 seek=$((0x4d)) conv=notrunc status=none
bad v3-offset-hides-record-size "IN: offset 0x4d: data offset 16 is shorter than the header"
{ printf "$TEXT"; header 3 16 14; } >"$IN"
bad truncated-text-in-records "IN: offset 0x47: data section does not start with 'SLOW' after '*end'"
{ printf "$TEXT"; printf '\x01\x02\x03\x04\x05\x06\x07\x08'; } >"$IN"
bad clock-not-in-file-cpu "IN: no thread-cpu times: the file's clock is wall"
{ printf '*version\n2\nclock=wall\n*threads\n1\tmain\n*methods\n0x8\tC\tk\t()V\tC.java\n*end\n'; header 2 32 0; } >"$IN"
ARGS="--clock cpu"

# ---- folded stacks ----
bad folded-strict-bad-line "IN:3: expected 'frame;frame;... count'"
printf 'a;b 1\n# comment\na;b;c x\n' >"$IN"
ARGS="--strict"
bad folded-count-overflow "IN:1: expected 'frame;frame;... count'"
printf 'a;b 99999999999999999999999\n' >"$IN"
ARGS="--strict -f folded"

# ---- output ----
bad output-in-missing-directory "missing/out.svg: cannot create output: No such file or directory"
cp "$ART/perflib-basic.trace" "$IN"
OUT_PATH="missing/out.svg"
bad output-device-full "/dev/full: cannot write output: No space left on device"
cp "$ART/perflib-basic.trace" "$IN"
OUT_PATH=/dev/full
bad output-is-a-directory "/tmp: cannot write output: is a directory"
cp "$ART/perflib-basic.trace" "$IN"
OUT_PATH=/tmp
# Text outputs larger than the sink's 64 KiB block meet the full device
# while writing, not at the commit: the writer stops and the output still
# names the error (the message was empty before issue 14's output change).
big_folded() { awk 'BEGIN { for (i = 0; i < 3000; i++) printf "main;frame_number_%d;callee_%d 1\n", i, i }' >"$IN"; }
bad output-device-full-folded "/dev/full: cannot write output: No space left on device"
big_folded
OUT_PATH=/dev/full
ARGS="--format folded"
bad output-device-full-tree "/dev/full: cannot write output: No space left on device"
big_folded
OUT_PATH=/dev/full
ARGS="--format tree"
bad output-device-full-report "/dev/full: cannot write output: No space left on device"
big_folded
OUT_PATH=/dev/full
ARGS="--report"

# ---- ART streaming and V2 ----
STREAM=$ART/ffx-art-streaming.trace
bad streaming-header-only "IN: nothing to draw: the file has no method records"
head -c 32 "$STREAM" >"$IN"
bad streaming-cut-in-header "IN: offset 0x6: data offset 32 is past the end of the file (20 bytes)"
head -c 20 "$STREAM" >"$IN"
bad streaming-cut-mid-escape "IN: nothing to draw: the file has no method records"
{ head -c 32 "$STREAM"; printf '\0\0\x01'; le16 500; printf '0x4\tC\tm\t()V\tC.java\n'; } >"$IN"
bad streaming-summary-length-past-end "IN: nothing to draw: the file has no method records"
{ head -c 32 "$STREAM"; printf '\0\0\x03\xff\xff\xff\x7f*version'; } >"$IN"
bad v2-cut-mid-leb128 "IN: nothing to draw: the file has no method records"
{ printf 'SLOW'; le16 5; head -c 26 /dev/zero; printf '\x02\x01\0\0\0\x01\0\0\x05\0\0\0\x80\x80\x80'; } >"$IN"
bad v2-method-length-past-end "IN: nothing to draw: the file has no method records"
{ printf 'SLOW'; le16 5; head -c 26 /dev/zero; printf '\x01\x08\0\0\0\0\0\0\0\xff\xff'; } >"$IN"
bad long-running-methods-trace "IN: offset 0x4: ART long-running-methods trace (version 0xf6, low-overhead tracing, 2025+): not a Debug.startMethodTracing trace and not supported (Perfetto reads it)"
{ printf 'SLOW'; le16 246; head -c 26 /dev/zero; } >"$IN"
bad bare-data-section "IN: offset 0x0: a bare data section (version 3) without its '*version' text part: join it with its .header/.sec text first"
{ header 3 32 14; record 1 8 0 0; } >"$IN"
bad perfetto-protobuf "IN: offset 0x4: malformed protobuf: truncated 64-bit field"
printf '\x0a\x05\x12\x03abc\x0a\x02\x08\x01' >"$IN"
# issue 15: an editor re-encoded the binary part as UTF-8 (EF BF BD runs)
bad art-reencoded-utf8 "IN: offset 0x342: the binary part holds U+FFFD replacement characters (bytes EF BF BD): the file was saved or transferred as UTF-8 text, which destroys the records; use the file as the device wrote it (adb pull)"
python3 -c 'import sys; sys.stdout.buffer.write(open(sys.argv[1], "rb").read().decode("utf-8", "replace").encode())' "$ART/perflib-basic.trace" >"$IN"
bad art-streaming-reencoded-utf8 "IN: offset 0x4: the binary part holds U+FFFD replacement characters (bytes EF BF BD): the file was saved or transferred as UTF-8 text, which destroys the records; use the file as the device wrote it (adb pull)"
python3 -c 'import sys; sys.stdout.buffer.write(open(sys.argv[1], "rb").read().decode("utf-8", "replace").encode())' "$ART/ffx-art-streaming.trace" >"$IN"
bad perf-data-cut-in-header "IN: offset 0x10: the file ends inside the perf.data header"
printf 'PERFILE2\x68\0\0\0\0\0\0\0' >"$IN"
bad perf-data-record-past-data "IN: offset 0xf0: malformed perf.data: a record shorter than its header"
python3 tests/data/perfdata/mkperf.py short-record "$IN"
bad perf-data-callchain-too-long "IN: offset 0x1c0: malformed perf.data: a SAMPLE record is shorter than its fields"
python3 tests/data/perfdata/mkperf.py long-chain "$IN"
bad folded-only-comments "IN: nothing to draw: the file has no stacks"
printf '# perf script | stackcollapse\n\n# nothing sampled\n' >"$IN"
ARGS="-f folded"

